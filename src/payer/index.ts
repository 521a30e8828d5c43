/** Payer side: placeholder barrel, filled in by its own issue. */
export {};
