// The MUI data grid (~410 KB with the parts of MUI only it uses) loads with the first list
// shown, not with every module that imports this folder: the store, the shell and the offline
// home import small helpers from here and start faster without it (issue 16).
// The app starts loading it when the address becomes a list screen (src/app/listPrefetch.ts),
// beside the list's first request; once loaded, EntityGrid draws it without a suspended render.
type GridViewModule = typeof import('./GridView');

let loading: Promise<GridViewModule> | undefined;
let loaded: GridViewModule['default'] | undefined;

/** Loads the grid's module (once; again after a failed load). */
export function loadGridView(): Promise<GridViewModule> {
  loading ??= import('./GridView').then(
    (module) => {
      loaded = module.default;
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The grid, when its module is loaded already. */
export function loadedGridView(): GridViewModule['default'] | undefined {
  return loaded;
}
