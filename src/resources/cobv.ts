import { APIResource } from '../core/resource.ts';

/** Placeholder: filled in by its own issue. */
export class CobV extends APIResource {}
