/** instant-payments/sandbox: the simulator (Node). */
export {};
