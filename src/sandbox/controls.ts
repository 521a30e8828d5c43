/**
 * The sandbox's test controls as HTTP routes under `/sandbox/`, for the CLI, other languages
 * and browsers: JSON in, JSON out, no credentials. A route is one entry of a table: method,
 * path template, a line saying what it does, the schema of its body, and the call
 * (`control(...)`). The body is read strictly (an unknown field is refused: a typo does not pass
 * silently); every broken rule comes back at once in a 400 problem document, like the API's.
 */
import { z } from 'zod';
import { parseAmount, MONEY_PATTERN } from '../lib/money.ts';
import { DISPUTE_NATURES } from '../lib/refunds.ts';
import { FAULT_KINDS } from './faults.ts';
import { json, readJson } from './http.ts';
import { Problem } from './problems.ts';

/** Where the controls live on the sandbox's origin. */
export const CONTROL_PREFIX = '/sandbox/';

/** The parameters a path template names: `'/x/{txid}/pay'` → `{ txid: string }`. */
type ParamsOf<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<Rest>
  : unknown;

/** A test control's HTTP route, as `sandbox.controlRoutes` lists it. */
export interface SandboxControl {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path template, `{name}` for a parameter: `/sandbox/charges/{txid}/pay`. */
  readonly path: string;
  /** What it does, in a line (the CLI lists it). */
  readonly does: string;
}

/** One control route, as the table holds it. */
export interface ControlRoute extends SandboxControl {
  /** Runs it; the result is answered as JSON with 200. */
  readonly run: (params: Readonly<Record<string, string>>, body: unknown) => unknown;
}

/** A table entry: the body is parsed with `body` and handed to `run` typed. */
export function control<const Path extends string, Body extends z.ZodType>(
  method: ControlRoute['method'],
  path: Path,
  does: string,
  body: Body,
  run: (params: ParamsOf<Path>, input: z.output<Body>) => unknown,
): ControlRoute {
  return {
    method,
    path,
    does,
    run: (params, raw) => {
      const parsed = body.safeParse(raw ?? {});
      if (!parsed.success) {
        const violacoes = parsed.error.issues.flatMap((issue) =>
          issue.code === 'unrecognized_keys'
            ? issue.keys.map((key) => ({ razao: 'This route takes no such field.', propriedade: key }))
            : [{ razao: issue.message, propriedade: issue.path.join('.') || 'body' }],
        );
        throw new Problem('RequisicaoInvalida', 'The body does not fit this route (see violacoes).', violacoes);
      }
      return run(params as ParamsOf<Path>, parsed.data);
    },
  };
}

interface Compiled {
  route: ControlRoute;
  pattern: RegExp;
  names: string[];
}

/** The table of control routes, and the answer to a request under `/sandbox/`. */
export class ControlTable {
  readonly routes: readonly ControlRoute[];
  readonly #compiled: Compiled[];

  constructor(routes: readonly ControlRoute[]) {
    this.routes = routes;
    this.#compiled = routes.map((route) => {
      const names: string[] = [];
      const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { route, pattern: new RegExp(`^${source}$`), names };
    });
  }

  /**
   * Answers `request` for `path` (under `/sandbox/`): 404 for a path no route has, 405 for a
   * method the path does not take, 400 for a body that does not fit, else the route's result.
   */
  async answer(request: Request, path: string): Promise<Response> {
    const matches = this.#compiled.flatMap((entry) => {
      const match = entry.pattern.exec(path);
      return match ? [{ entry, values: match.slice(1) }] : [];
    });
    if (matches.length === 0) {
      const known = this.routes.map((r) => `${r.method} ${r.path}`).join(', ');
      throw new Problem('NaoEncontrado', `No sandbox control at ${path}. The controls: ${known}.`);
    }
    const found = matches.find(({ entry }) => entry.route.method === request.method);
    if (found === undefined) {
      const allowed = matches.map(({ entry }) => entry.route.method);
      throw new Problem('RequisicaoInvalida', `${path} takes ${allowed.join(', ')}, not ${request.method}.`, [], 405, {
        allow: allowed.join(', '),
      });
    }
    const params: Record<string, string> = {};
    for (const [i, name] of found.entry.names.entries()) params[name] = decodeParam(name, found.values[i]!);
    const body = await readJson(request, 'RequisicaoInvalida');
    try {
      return json(200, (await found.entry.route.run(params, body)) ?? {});
    } catch (error) {
      // The controls' own refusals of a value (a zero amount, an unknown fault kind) are the caller's to fix.
      if (error instanceof RangeError) throw new Problem('RequisicaoInvalida', error.message);
      throw error;
    }
  }
}

function decodeParam(name: string, value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new Problem('RequisicaoInvalida', `The path parameter ${name} is not valid percent-encoding.`);
  }
}

// ---------------------------------------------------------------------------------------------
// The bodies of the sandbox's own controls

const money = z.string().regex(MONEY_PATTERN, 'a decimal string with two decimals, such as "10.00"');
const errorCode = z.string().min(1).max(35);

export const PAY_BODY = z.strictObject({
  valor: money.exactOptional(),
  infoPagador: z.string().max(140).exactOptional(),
});

export const SETTLE_BODY = z.strictObject({
  status: z.enum(['LIQUIDATED', 'CANCELED']),
  errorCode: errorCode.exactOptional(),
});

export const FORGE_BODY = z.strictObject({
  status: z.string().min(1),
  errorCode: errorCode.exactOptional(),
});

export const BALANCE_BODY = z.strictObject({
  balance: z.string().refine((value) => {
    try {
      parseAmount(value);
      return true;
    } catch {
      return false;
    }
  }, 'a decimal string such as "1000.00"'),
});

export const FAULTS_BODY = z.strictObject({
  rate: z.number().min(0).max(1),
  kinds: z.array(z.enum(FAULT_KINDS)).min(1).exactOptional(),
  latencyMs: z.int().min(0).max(60_000).exactOptional(),
  retryAfter: z.int().min(0).max(3600).exactOptional(),
  seed: z.int().exactOptional(),
});

export const NO_BODY = z.strictObject({});

export const DROP_BODY = z.strictObject({
  count: z.int().min(0).exactOptional(),
  rate: z.number().min(0).max(1).exactOptional(),
});

export const DISPUTE_BODY = z.strictObject({
  natureza: z.enum(DISPUTE_NATURES),
  valor: money.exactOptional(),
});

export const CLOCK_BODY = z.strictObject({
  set: z.string().exactOptional(),
  advance: z.union([z.string(), z.number().min(0)]).exactOptional(),
});

export const APPROVE_REC_BODY = z.strictObject({
  jornada: z.enum(['JORNADA_1', 'JORNADA_2', 'JORNADA_3', 'JORNADA_4']).exactOptional(),
});

export const REJECT_REC_BODY = z.strictObject({
  codigo: z.enum(['AP13', 'AP14']).exactOptional(),
});

export const ANSWER_SOLICREC_BODY = z.strictObject({
  status: z.enum(['ACEITA', 'REJEITADA', 'RECEBIDA']),
});

export const SETTLE_COBR_BODY = z.strictObject({
  status: z.enum(['PAGA', 'REJEITADA']),
  /** Rejection code of a `REJEITADA` attempt (the list of the recurring spec, 2.4). */
  codigo: z
    .string()
    .regex(/^[A-Z0-9]{4}$/)
    .exactOptional(),
});
