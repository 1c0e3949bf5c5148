export { TestingPage } from './TestingPage';
