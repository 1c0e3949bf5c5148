// Addresses of the app that shared code names (the API client sends a user whose temporary
// password must be changed there, ADR-0003).
export const CHANGE_PASSWORD_PATH = '/users/chngpas';
