// Addresses of the app that shared code names (the API client sends a user whose temporary
// password must be changed there, issue 26 §5).
export const CHANGE_PASSWORD_PATH = '/users/chngpas';
