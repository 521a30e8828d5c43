/**
 * instant-payments/sandbox (Node): an in-memory instant payments service that judges every
 * request from the spec. Serve it to msw (`sandbox.handlers`) or over real HTTP
 * (`await sandbox.listen()`), and point the SDK's clients at it.
 *
 * @module instant-payments/sandbox
 */
export { Sandbox, createSandbox, VIRTUAL_ORIGIN } from './sandbox/service.ts';
export type { SandboxOptions, SandboxListenOptions, SandboxCredentials } from './sandbox/service.ts';
export type { LocalHolidays } from './lib/calendar.ts';
export { sandboxPayerOptions } from './sandbox/payer-options.ts';
export type { FetchLike } from './core/types.ts';
export type { SandboxTlsOptions } from './sandbox/server.ts';
export { SandboxClock } from './sandbox/clock.ts';
export type { FaultKind, FaultOptions } from './sandbox/faults.ts';
export { FAULT_KINDS, ConnectionDrop } from './sandbox/faults.ts';
export type { DisputeOptions, PayChargeOptions, ReceivedPayment } from './sandbox/payments.ts';
export type { ApproveRecOptions, SettleCobrOptions } from './sandbox/recurring/part.ts';
export type { OwnAccount } from './sandbox/recurring/state.ts';
export type { TransferRecord } from './sandbox/cash-out.ts';
export type { SandboxControl } from './sandbox/controls.ts';
export type {
  DropOptions,
  NotificationAnswer,
  NotificationAttempt,
  RedeliveryOptions,
  SentNotification,
} from './sandbox/notifications.ts';
export { ERROR_BASE } from './sandbox/problems.ts';
