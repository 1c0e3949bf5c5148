// The offline feature's light entry point, for the login screen (issue 16): nothing here loads
// the local store or the upload engine. Everything else is in index.ts, loaded after sign-in.
export { LoginUnsentNotice } from './LoginUnsentNotice';
