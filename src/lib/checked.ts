/** The type the validity predicates narrow to. */

declare const checked: unique symbol;

/**
 * A string one of the validity predicates accepted: after `if (isValidCpf(s))`, `s` is a
 * `Checked<'cpf'>`, still usable wherever a `string` is. The brand keeps the other branch
 * intact: `if (!isValidCpf(s))` leaves a `string` variable a `string` (a plain `s is string`
 * guard would narrow it to `never` there). It exists only in types.
 */
export type Checked<Tag extends string> = string & { readonly [checked]: Tag };
