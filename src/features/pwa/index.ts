// Public surface: service worker registration and the update prompt.
export { ServiceWorkerGate } from './ServiceWorkerGate';
