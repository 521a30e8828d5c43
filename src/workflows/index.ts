/** Workflows built on the public resource API: placeholder barrel. */
export {};
