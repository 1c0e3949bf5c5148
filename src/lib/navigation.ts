// Code outside React (the axios interceptor, logout) must navigate with the router, yet lib may
// not import the app. The app registers its router's navigate here at start.

export type NavigateFn = (to: string, options?: { replace?: boolean }) => void;

let navigateImpl: NavigateFn = (to) => window.location.assign(to);

export function registerNavigate(fn: NavigateFn): void {
  navigateImpl = fn;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  navigateImpl(to, options);
}
