// The caseload's figures as the server counts them and the screens show them
// (GET /api/caseload, GET /api/caseload/users/{id}, POST /api/caseload/preview; docs/api.md
// "Caseload", docs/product.md §6.5.1): one declaration for the server and the app.

/** A caseload's figures: what a device holds of it, and what is left out. */
export interface CaseloadFigures {
  /** The clients the device mirrors (within the bound). */
  clients: number;
  /** The clients the caseload rule takes in, before the bound. */
  candidates: number;
  /** Clients of the caseload left out by the bound. */
  overflow: number;
  bound: number;
  /** Of `clients`: pinned, assigned, and of the territories only. */
  pinned: number;
  assigned: number;
  territory: number;
  /** Clients of the organisation (not erased) not on the device. */
  outside: number;
  /** True when there are more than `outside` of them (the organisation is counted up to a bound). */
  outsideIsLowerBound: boolean;
  /** Rows of the device's client tables those clients bring. */
  rows: number;
  /** Estimated megabytes of those rows on the device. */
  megabytes: number;
}
