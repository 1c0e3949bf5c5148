// Where the lookup-list screens live (product.md §2 route table: lists, organisations).
export const LISTS_PATH = '/lists';
export const ORGANISATIONS_PATH = '/organisations';
