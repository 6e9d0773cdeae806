// The bounds of the numeric keys (docs/configuration.md): each keeps a value the schema accepts from breaking
// the service at run time. The numbers are what the checks and the docs both say.

/** 64 MiB: a JSON body is held in memory while it is read, once per request in flight. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Proxies one deployment puts in front of the service (CDN, load balancer, reverse proxy). */
export const MAX_TRUSTED_PROXY_HOPS = 10;

/** IPv6 rate-limit networks: wider than /48 puts whole sites together, /128 is one address. */
export const IPV6_PREFIX = { min: 48, max: 128 } as const;

/**
 * About 3 a second: the token bucket counts time in ms × rate as exact integers (src/forms/rules/rate-limiter.ts),
 * which stay below 2^53 for 28 years of uptime at this rate.
 */
export const MAX_RATE_LIMIT_PER_HOUR = 10_000;

/** Characters of a name: it is part of the owner mail's subject. */
export const MAX_NAME_LENGTH = 1_000;

/** Characters of a message: it travels whole in one mail, which stays under the 10 MB mail servers take. */
export const MAX_MESSAGE_LENGTH = 1_000_000;

/** A quarter of an hour to a year: a link must outlive mail delivery, and its expiry must be a date. */
export const CONFIRM_TTL_HOURS = { min: 0.25, max: 8_760 } as const;

/** 2^31 seconds, the largest delta-seconds a cache must understand (RFC 9111 section 1.2.2). */
export const MAX_CACHE_MAX_AGE = 2_147_483_648;

/** The longest `queue_max_hours`: a message older than a year is not worth sending. */
export const MAX_QUEUE_HOURS = 8760;

/** The highest `send_per_minute` other than 0 (no limit). */
export const MAX_SEND_PER_MINUTE = 60_000;

/** The longest idle time-out of an admin session: its absolute limit, 7 days. */
export const MAX_SESSION_HOURS = 168;

/** 64 MiB: an admin upload is held in memory while its content is checked. */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
