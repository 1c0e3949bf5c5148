// Rendering for the component tests (jsdom): React 19's createRoot inside act(), with the
// the app's own translations (public/assets/i18n).
import { createElement, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { act } from 'react';
import { IntlProvider } from 'react-intl';
import { flatten, type Catalog } from '../../../src/lib/session/i18n';
import en from '../../../public/assets/i18n/en.json';
import fr from '../../../public/assets/i18n/fr.json';

export type Lang = 'fr' | 'en';

export const messages: Record<Lang, Record<string, string>> = {
  en: flatten(en as Catalog),
  fr: flatten(fr as Catalog),
};

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// jsdom lacks what the Data Grid measures its container with.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  } as unknown as typeof ResizeObserver;
}

export interface Rendered {
  container: HTMLElement;
  root: Root;
  rerender: (element: ReactElement) => Promise<void>;
  unmount: () => Promise<void>;
}

function wrap(element: ReactElement, lang: Lang): ReactElement {
  return createElement(IntlProvider, { locale: lang, messages: messages[lang], onError: () => undefined }, element);
}

export async function render(element: ReactElement, lang: Lang = 'en'): Promise<Rendered> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () => root.render(wrap(element, lang)));
  return {
    container,
    root,
    rerender: async (next) => act(async () => root.render(wrap(next, lang))),
    unmount: async () => {
      await act(async () => root.unmount());
      container.remove();
    },
  };
}

export interface RenderedHook<R, P> {
  /** What the hook returned at its last render. */
  result: { current: R };
  rerender: (props: P) => Promise<void>;
  unmount: () => Promise<void>;
}

/**
 * Renders a hook alone (a controller without its view), the way @testing-library/react's
 * renderHook does, inside the app's translations and the optional `wrapper` (a router, a context).
 */
export async function renderHook<R, P = undefined>(
  hook: (props: P) => R,
  options: { initialProps?: P; wrapper?: ComponentType<{ children: ReactNode }>; lang?: Lang } = {},
): Promise<RenderedHook<R, P>> {
  const result = { current: undefined as R };
  function Probe({ props }: { props: P }): null {
    result.current = hook(props);
    return null;
  }
  const element = (props: P): ReactElement => {
    const probe = createElement(Probe, { props });
    return options.wrapper ? createElement(options.wrapper, null, probe) : probe;
  };
  const rendered = await render(element(options.initialProps as P), options.lang);
  return { result, rerender: (props) => rendered.rerender(element(props)), unmount: rendered.unmount };
}

/** Lets promises and timers of `ms` run inside act (debounces, loads). */
export async function wait(ms = 0): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
}

/** Types into an input the way React sees it (the native value setter, then an input event). */
export async function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string): Promise<void> {
  const proto = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  await act(async () => {
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

export async function blur(element: HTMLElement): Promise<void> {
  await act(async () => {
    element.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  });
}

export async function click(element: Element): Promise<void> {
  await act(async () => {
    element.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    element.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
    (element as HTMLElement).click();
  });
}

/** The control of the MUI field labelled `label`: an input (a <label for>) or a select's
 * combobox (labelled by a <div id> in MUI 9). */
export function inputByLabel(container: ParentNode, label: string): HTMLInputElement | HTMLTextAreaElement {
  const labels = Array.from(container.querySelectorAll('label, .MuiInputLabel-root'));
  const found = labels.find((l) => l.textContent?.replace(/\s*\*\s*$/, '').trim() === label);
  if (!found) throw new Error(`no label "${label}" in: ${labels.map((l) => l.textContent).join(' | ')}`);
  const target =
    found instanceof HTMLLabelElement && found.htmlFor
      ? document.getElementById(found.htmlFor)
      : container.querySelector(`[aria-labelledby="${found.id}"]`);
  if (!target) throw new Error(`label "${label}" points at nothing`);
  return target as HTMLInputElement;
}

/** The helper text (message) under the field labelled `label`. */
export function helperOf(container: ParentNode, label: string): string {
  const control = inputByLabel(container, label).closest('.MuiFormControl-root');
  return control?.querySelector('.MuiFormHelperText-root')?.textContent ?? '';
}
