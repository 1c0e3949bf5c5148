// Where the help lives (product.md §2: help, help/{lang}), open without signing in.
export const HELP_PATH = '/help';
export const helpPath = (lang: string) => `${HELP_PATH}/${lang}`;
