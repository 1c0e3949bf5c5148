// Why a client's data was erased (docs/security.md "What an erasure does"): a code from this list,
// and an optional note, which the server refuses when it holds any of the client's values (the
// log keeps it for good). The server checks the body against these; the erase dialog offers them.

export const ERASE_REASONS = ['clientRequest', 'consentWithdrawn', 'duplicate', 'noLongerNeeded', 'legalObligation', 'other'] as const;

export type EraseReason = (typeof ERASE_REASONS)[number];

/** The longest note an erasure takes. */
export const ERASE_NOTE_MAX = 300;
