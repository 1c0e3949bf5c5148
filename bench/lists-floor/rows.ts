// A row as the page receives it: the fields of the providers list.
export interface Row {
  id: string;
  name: string;
  type: string;
  territory: string;
  phone: string;
  email: string;
  date: string;
}

export const COLUMNS = [
  { field: 'name', headerName: 'Name' },
  { field: 'type', headerName: 'Type' },
  { field: 'territory', headerName: 'Territory' },
  { field: 'phone', headerName: 'Phone' },
  { field: 'email', headerName: 'Email' },
  { field: 'date', headerName: 'Created' },
] as const;
