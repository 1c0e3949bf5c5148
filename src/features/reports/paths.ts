// Where the reports screen lives (product.md §2 route table: reports).
export const REPORTS_PATH = '/reports';
