/** Injection tokens every service module can ask for. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const SERVICE_LOGGER = Symbol('SERVICE_LOGGER');
/** The service's own NATS connection, for publishing events and asking other services. */
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
