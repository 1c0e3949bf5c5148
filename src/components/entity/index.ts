// Schema-driven parts of the list and form screens (ADR-0024).
export { EntityGrid, type EntityGridProps } from './EntityGrid';
export { EntityListPage, type EntityListPageProps } from './EntityListPage';
export { ListGrid, type ListGridProps } from './ListGrid';
export { EntityForm, type EntityFormProps, type FormApi } from './EntityForm';
export { buildColumns, defaultColumns, isPendingRow, type CustomColumn, type GridRow } from './columns';
export { toCsv, csvCell, csvSeparator, fetchAllRows, BOM, EXPORT_ROW_CAP } from './csv';
export { displayValue, exportValue, fieldLabel, type DisplayContext, type Translate } from './fields';
export { useDisplayContext } from './useDisplayContext';
export { lookupLabel, lookupOptions, itemLabel, langOf, useLookupLists, type Option } from './lookups';
export { validateValues, checkField, type Problem } from './validation';
export { draftKey, loadDraft, saveDraft, clearDraft } from './drafts';
export { DRAFT_DELAY_MS, useFlushOnLeave } from './useDraft';
export { PAGE_SIZE_MENUS, type Filters, type PageSizeMenu } from './useGridQuery';
export { defaultFormFields } from './formState';
export { messageOf, serverFieldErrors } from '../../lib/http';
export { LookupMultiSelect, type LookupMultiSelectProps } from './LookupMultiSelect';
export { FieldGrid, type FieldGridProps } from './FieldGrid';
export { countText } from './paging';
