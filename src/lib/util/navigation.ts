// Code outside React (the axios interceptor, logout) must navigate with the router, and the
// shell's menu asks screens to load ahead, yet lib and features may not import the app. The app
// registers its router's navigate and its screens' preload here at start.

export type NavigateFn = (to: string, options?: { replace?: boolean }) => void;

let navigateImpl: NavigateFn = (to) => window.location.assign(to);

export function registerNavigate(fn: NavigateFn): void {
  navigateImpl = fn;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  navigateImpl(to, options);
}

/** Starts loading the modules of the screen at a path; the app's (routes.tsx), else nothing. */
export type PreloadFn = (to: string) => void;

let preloadImpl: PreloadFn = () => undefined;

export function registerPreload(fn: PreloadFn): void {
  preloadImpl = fn;
}

/** A menu link pointed at or focused asks its screen's modules: the click then finds them in and
 * draws the screen at once, without a loading bar and React's 300 ms reveal throttle after it
 * (src/lib/ui/preloadable.ts). */
export function preloadScreen(to: string): void {
  preloadImpl(to);
}
