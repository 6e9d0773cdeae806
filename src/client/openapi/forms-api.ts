// Made by `npm run build` (scripts/client-types.mjs) with openapi-typescript from the forms listener's /openapi.json,
// served with reference-config.toml beside this file. Not edited by hand.
export interface paths {
    "/altcha.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The proof-of-work widget, for any page */
        get: operations["getAltchaWidget"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The proof-of-work widget, for any page */
        head: operations["headAltchaWidget"];
        patch?: never;
        trace?: never;
    };
    "/contact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit the contact form /contact
         * @description The checks run in the order of docs/forms-api.md "POST <path>", and the first that fails gives the answer. A page of an allowed origin gets the CORS headers on every answer but `403`.
         */
        post: operations["submitContact"];
        delete?: never;
        /** CORS preflight */
        options: operations["preflightContact"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A proof-of-work challenge for /contact (docs/spam.md "Proof of work") */
        get: operations["challengeContact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/favicon.ico": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site icon browsers ask every origin for */
        get: operations["getFavicon"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The site icon browsers ask every origin for */
        head: operations["headFavicon"];
        patch?: never;
        trace?: never;
    };
    "/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit the feedback form /feedback
         * @description The checks run in the order of docs/forms-api.md "POST <path>", and the first that fails gives the answer. A page of an allowed origin gets the CORS headers on every answer but `403`.
         */
        post: operations["submitFeedback"];
        delete?: never;
        /** CORS preflight */
        options: operations["preflightFeedback"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generic": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit the generic form /generic
         * @description The checks run in the order of docs/forms-api.md "POST <path>", and the first that fails gives the answer. A page of an allowed origin gets the CORS headers on every answer but `403`.
         */
        post: operations["submitGeneric"];
        delete?: never;
        /** CORS preflight */
        options: operations["preflightGeneric"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the service can answer (docs/forms-api.md "Endpoints") */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Whether the service can answer (docs/forms-api.md "Endpoints") */
        head: operations["headHealth"];
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The counters (docs/forms-api.md "/metrics")
         * @description JSON unless `format`, or an `Accept` header that takes `text/plain` or `application/openmetrics-text` (as a Prometheus server sends), asks for the Prometheus text format.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * The counters (docs/forms-api.md "/metrics")
         * @description JSON unless `format`, or an `Accept` header that takes `text/plain` or `application/openmetrics-text` (as a Prometheus server sends), asks for the Prometheus text format.
         */
        head: operations["headMetrics"];
        patch?: never;
        trace?: never;
    };
    "/newsletter": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign up to the newsletter of /newsletter
         * @description The checks run in the order of docs/forms-api.md "POST <path>", and the first that fails gives the answer. A page of an allowed origin gets the CORS headers on every answer but `403`.
         */
        post: operations["submitNewsletter"];
        delete?: never;
        /** CORS preflight */
        options: operations["preflightNewsletter"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/newsletter/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Confirm a signup (docs/newsletter.md) */
        get: operations["confirmNewsletter"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/newsletter/preferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Show the lists of the address (docs/newsletter.md) */
        get: operations["showPreferences"];
        put?: never;
        /** Join and leave lists, or leave them all (docs/newsletter.md) */
        post: operations["savePreferences"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/newsletter/unsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Show the button that unsubscribes (docs/newsletter.md) */
        get: operations["showUnsubscribeNewsletter"];
        put?: never;
        /** Unsubscribe (the button, or a mail program's one click) (docs/newsletter.md) */
        post: operations["unsubscribeNewsletter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The OpenAPI document of this listener (docs/openapi.md) */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The OpenAPI document of this listener (docs/openapi.md) */
        head: operations["headOpenApi"];
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A signed proof-of-work challenge; the widget puts its solution in the form's `altcha` field. */
        Challenge: {
            codeChallenge?: {
                audio?: string;
                image: string;
                length?: number;
            };
            parameters: {
                algorithm: string;
                cost: number;
                data?: {
                    [key: string]: string | number | boolean | null;
                };
                expiresAt?: number;
                keyLength: number;
                keyPrefix: string;
                keySignature?: string;
                memoryCost?: number;
                nonce: string;
                parallelism?: number;
                salt: string;
            };
            signature?: string;
        };
        /** @description The lifetime counters since the start (docs/forms-api.md "/metrics"). */
        Counters: {
            auto_reply_failed: number;
            body_too_large: number;
            confirmation_failed: number;
            confirmation_sent: number;
            confirmed: number;
            duplicate_signup: number;
            honeypot_blocked: number;
            invalid_body: number;
            origin_blocked: number;
            persist_failed: number;
            queue_failed: number;
            queue_retried: number;
            queued: number;
            rate_limited: number;
            received: number;
            send_failed: number;
            sent: number;
            spam_captcha: number;
            spam_disposable: number;
            spam_expired: number;
            spam_language: number;
            spam_links: number;
            spam_proof_of_work: number;
            spam_quarantined: number;
            spam_rejected: number;
            spam_replayed: number;
            spam_too_fast: number;
            spam_virus: number;
            spam_words: number;
            telegram_failed: number;
            validation_failed: number;
        };
        /** @description The error catalogue's body for `body_too_large`. */
        Error_body_too_large: {
            /** @enum {string} */
            error: "body_too_large";
            /** @description A fixed text that never repeats the input, such as "The request body is too large." */
            message: string;
        };
        /** @description The error catalogue's body for `internal_error`. */
        Error_internal_error: {
            /** @enum {string} */
            error: "internal_error";
            /** @description A fixed text that never repeats the input, such as "The server could not handle this request. Please try again later." */
            message: string;
        };
        /** @description The error catalogue's body for `invalid_body`. */
        Error_invalid_body: {
            /** @enum {string} */
            error: "invalid_body";
            /** @description A fixed text that never repeats the input, such as "The request body could not be read." */
            message: string;
        };
        /** @description The error catalogue's body for `origin_not_allowed`. */
        Error_origin_not_allowed: {
            /** @enum {string} */
            error: "origin_not_allowed";
            /** @description A fixed text that never repeats the input. */
            message?: string;
        };
        /** @description The error catalogue's body for `rate_limited`. */
        Error_rate_limited: {
            /** @enum {string} */
            error: "rate_limited";
            /** @description A fixed text that never repeats the input, such as "Too many submissions from your address. Please try again later." */
            message: string;
        };
        /** @description The error catalogue's body for `request_timeout`. */
        Error_request_timeout: {
            /** @enum {string} */
            error: "request_timeout";
            /** @description A fixed text that never repeats the input, such as "The request did not arrive in time." */
            message: string;
        };
        /** @description The error catalogue's body for `storage_failed`, `send_failed`, `internal_error`. */
        Error_storage_failed_or_send_failed_or_internal_error: {
            /** @enum {string} */
            error: "storage_failed" | "send_failed" | "internal_error";
            /** @description A fixed text that never repeats the input, such as "Your submission could not be saved. Please try again later." */
            message: string;
        };
        /** @description The error catalogue's body for `unavailable`. */
        Error_unavailable: {
            /** @enum {string} */
            error: "unavailable";
            /** @description A fixed text that never repeats the input, such as "The service is briefly unavailable. Please try again in a moment." */
            message: string;
        };
        Ok: {
            /** @enum {boolean} */
            ok: true;
        };
        /** @description A submission to the contact form at /contact. Values are trimmed before they are checked, lengths count characters (code points), and a value that is empty once trimmed counts as absent; other fields are ignored. */
        Submission_Contact: {
            /** @description The ALTCHA widget's solution of a challenge from `GET /contact/challenge`, sent at least 3 seconds after it was issued and within 600 seconds (docs/spam.md "Proof of work"). Without it the submission is taken for spam. */
            altcha: string;
            /**
             * Format: email
             * @description The sender's address: an RFC 5322 address (docs/submission-rules.md "Email addresses"); replies go to it.
             */
            email: string;
            /** @description The message; line breaks are kept. No control characters but line breaks and tabs. */
            message: string;
            /** @description The sender's name, on one line. No control characters or line breaks. */
            name: string;
            /** @description Free text on one line, at most 100 characters. */
            service?: string;
            /** @description The honeypot: leave it empty (hidden from people). A filled one is answered as a success and nothing is delivered. */
            website?: string;
        } & {
            [key: string]: unknown;
        };
        /** @description A submission to the feedback form at /feedback. Values are trimmed before they are checked, lengths count characters (code points), and a value that is empty once trimmed counts as absent; other fields are ignored. */
        Submission_Feedback: {
            /**
             * Format: email
             * @description The sender's address: an RFC 5322 address (docs/submission-rules.md "Email addresses"); replies go to it.
             */
            email: string;
            /** @description The message; line breaks are kept. No control characters but line breaks and tabs. */
            message: string;
            /** @description The sender's name, on one line. No control characters or line breaks. */
            name: string;
            /** @description The honeypot: leave it empty (hidden from people). A filled one is answered as a success and nothing is delivered. */
            website?: string;
        } & {
            [key: string]: unknown;
        };
        /** @description A submission to the generic form at /generic. Values are trimmed before they are checked, lengths count characters (code points), and a value that is empty once trimmed counts as absent; other fields are ignored. */
        Submission_Generic: {
            /**
             * Format: email
             * @description The sender's address: an RFC 5322 address (docs/submission-rules.md "Email addresses"); replies go to it.
             */
            email: string;
            /** @description The message; line breaks are kept. No control characters but line breaks and tabs. */
            message: string;
            /** @description The sender's name, on one line. No control characters or line breaks. */
            name: string;
            /** @description The honeypot: leave it empty (hidden from people). A filled one is answered as a success and nothing is delivered. */
            website?: string;
        } & {
            [key: string]: unknown;
        };
        /** @description A submission to the newsletter form at /newsletter. Values are trimmed before they are checked, lengths count characters (code points), and a value that is empty once trimmed counts as absent; other fields are ignored. */
        Submission_Newsletter: {
            /**
             * Format: email
             * @description The address to sign up: an RFC 5322 address (docs/submission-rules.md "Email addresses"), kept in one spelling per mailbox.
             */
            email: string;
            /** @description The honeypot: leave it empty (hidden from people). A filled one is answered as a success and nothing is delivered. */
            website?: string;
        } & {
            [key: string]: unknown;
        };
        ValidationError_Contact: {
            details: {
                /** @enum {string} */
                field: "name" | "email" | "service" | "message";
                /** @description A fixed text that never repeats the input. */
                message: string;
            }[];
            /** @enum {string} */
            error: "validation";
        };
        ValidationError_Feedback: {
            details: {
                /** @enum {string} */
                field: "name" | "email" | "message";
                /** @description A fixed text that never repeats the input. */
                message: string;
            }[];
            /** @enum {string} */
            error: "validation";
        };
        ValidationError_Generic: {
            details: {
                /** @enum {string} */
                field: "name" | "email" | "message";
                /** @description A fixed text that never repeats the input. */
                message: string;
            }[];
            /** @enum {string} */
            error: "validation";
        };
        ValidationError_Newsletter: {
            details: {
                /** @enum {string} */
                field: "email";
                /** @description A fixed text that never repeats the input. */
                message: string;
            }[];
            /** @enum {string} */
            error: "validation";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request headers a page may send (CORS). */
        "Access-Control-Allow-Headers.optional": string;
        /** @description The methods a page may use (CORS). */
        "Access-Control-Allow-Methods.optional": string;
        /** @description The origin allowed to read the answer: the request's `Origin` when it is allowed, `*` for public answers. */
        "Access-Control-Allow-Origin": string;
        /** @description The origin allowed to read the answer: the request's `Origin` when it is allowed, `*` for public answers. */
        "Access-Control-Allow-Origin.optional": string;
        /** @description The methods the path answers. */
        "Allow.optional": string;
        /** @description How long the answer may be kept. */
        "Cache-Control": string;
        /** @description The strong entity tag of the answer; send it back in `If-None-Match` to get a `304` while it is unchanged. */
        ETag: string;
        /** @description Seconds to wait before the next try. */
        "Retry-After": number;
        /** @description The request headers the answer depends on. */
        Vary: string;
        /** @description The request headers the answer depends on. */
        "Vary.optional": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAltchaWidget: {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the ALTCHA widget, kept an hour, compressed when the request takes brotli or gzip (an ETag per encoding). */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description Not Modified: the widget the client holds is current. */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    headAltchaWidget: {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the ALTCHA widget, kept an hour, compressed when the request takes brotli or gzip (an ETag per encoding). */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description Not Modified: the widget the client holds is current. */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    submitContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it. Without it (not a browser) nothing is refused for it. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Submission_Contact"];
                "application/x-www-form-urlencoded": components["schemas"]["Submission_Contact"];
                "multipart/form-data": components["schemas"]["Submission_Contact"];
            };
        };
        responses: {
            /** @description OK: accepted (also a honeypot hit or a submission quarantined as spam). */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description Bad Request: `invalid_body`, `validation`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_body"] | components["schemas"]["ValidationError_Contact"];
                };
            };
            /** @description Forbidden: `origin_not_allowed` (the `Origin` is not in `allowed_origins`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_origin_not_allowed"];
                };
            };
            /** @description Request Timeout: `request_timeout`. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_request_timeout"];
                };
            };
            /** @description Payload Too Large: `body_too_large`. */
            413: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_body_too_large"];
                };
            };
            /** @description Too Many Requests: `rate_limited` (more than 10 submissions an hour from one address; try again after `Retry-After` seconds). */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    "Retry-After": components["headers"]["Retry-After"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_rate_limited"];
                };
            };
            /** @description Internal Server Error: `storage_failed`, `send_failed`, `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_storage_failed_or_send_failed_or_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable`. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    preflightContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it. Without it (not a browser) nothing is refused for it. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: from an allowed origin, the CORS headers; without an `Origin`, `Allow` only. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers.optional"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods.optional"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Allow: components["headers"]["Allow.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Forbidden: `origin_not_allowed`. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_origin_not_allowed"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    challengeContact: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it. Without it (not a browser) nothing is refused for it. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: a new challenge, never cached. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Challenge"];
                };
            };
            /** @description Forbidden: `origin_not_allowed`. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_origin_not_allowed"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getFavicon: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: a 16 x 16 icon, cached for 2592000 seconds. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "image/x-icon": string;
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    headFavicon: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: a 16 x 16 icon, cached for 2592000 seconds. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    submitFeedback: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it. Without it (not a browser) nothing is refused for it. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Submission_Feedback"];
                "application/x-www-form-urlencoded": components["schemas"]["Submission_Feedback"];
                "multipart/form-data": components["schemas"]["Submission_Feedback"];
            };
        };
        responses: {
            /** @description OK: accepted (also a honeypot hit or a submission quarantined as spam). */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description Bad Request: `invalid_body`, `validation`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_body"] | components["schemas"]["ValidationError_Feedback"];
                };
            };
            /** @description Forbidden: `origin_not_allowed` (the `Origin` is not in `allowed_origins`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_origin_not_allowed"];
                };
            };
            /** @description Request Timeout: `request_timeout`. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_request_timeout"];
                };
            };
            /** @description Payload Too Large: `body_too_large`. */
            413: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_body_too_large"];
                };
            };
            /** @description Too Many Requests: `rate_limited` (more than 10 submissions an hour from one address; try again after `Retry-After` seconds). */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    "Retry-After": components["headers"]["Retry-After"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_rate_limited"];
                };
            };
            /** @description Internal Server Error: `storage_failed`, `send_failed`, `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_storage_failed_or_send_failed_or_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable`. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    preflightFeedback: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it. Without it (not a browser) nothing is refused for it. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: from an allowed origin, the CORS headers; without an `Origin`, `Allow` only. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers.optional"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods.optional"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Allow: components["headers"]["Allow.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Forbidden: `origin_not_allowed`. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_origin_not_allowed"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    submitGeneric: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it. Without it (not a browser) nothing is refused for it. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Submission_Generic"];
                "application/x-www-form-urlencoded": components["schemas"]["Submission_Generic"];
                "multipart/form-data": components["schemas"]["Submission_Generic"];
            };
        };
        responses: {
            /** @description OK: accepted (also a honeypot hit or a submission quarantined as spam). */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description Bad Request: `invalid_body`, `validation`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_body"] | components["schemas"]["ValidationError_Generic"];
                };
            };
            /** @description Forbidden: `origin_not_allowed` (the `Origin` is not in `allowed_origins`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_origin_not_allowed"];
                };
            };
            /** @description Request Timeout: `request_timeout`. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_request_timeout"];
                };
            };
            /** @description Payload Too Large: `body_too_large`. */
            413: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_body_too_large"];
                };
            };
            /** @description Too Many Requests: `rate_limited` (more than 10 submissions an hour from one address; try again after `Retry-After` seconds). */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    "Retry-After": components["headers"]["Retry-After"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_rate_limited"];
                };
            };
            /** @description Internal Server Error: `storage_failed`, `send_failed`, `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_storage_failed_or_send_failed_or_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable`. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    preflightGeneric: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it. Without it (not a browser) nothing is refused for it. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: from an allowed origin, the CORS headers; without an `Origin`, `Allow` only. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers.optional"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods.optional"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Allow: components["headers"]["Allow.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Forbidden: `origin_not_allowed`. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_origin_not_allowed"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the service works. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The number of forms (4 in this configuration). */
                        forms: number;
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
            /** @description Service Unavailable: a part the service needs cannot be reached. */
            503: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The number of forms (4 in this configuration). */
                        forms: number;
                        /** @enum {string} */
                        status: "unavailable";
                        /** @description The parts that cannot be reached: `redis`, `postgres`. */
                        unavailable: string[];
                    };
                };
            };
        };
    };
    headHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the service works. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
            /** @description Service Unavailable: a part the service needs cannot be reached. */
            503: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: {
                /** @description `json`: the counters as JSON (the default); `prometheus`: the Prometheus text format, version 0.0.4 */
                format?: "json" | "prometheus";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the counters. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The counters of each form, by path. */
                        forms: {
                            "/contact": components["schemas"]["Counters"];
                            "/feedback": components["schemas"]["Counters"];
                            "/generic": components["schemas"]["Counters"];
                            "/newsletter": components["schemas"]["Counters"];
                        };
                        /** @description The mail queue now (docs/delivery.md "Metrics"). */
                        queue: {
                            failed: number;
                            fsyncs: number;
                            pending: number;
                        };
                        totals: components["schemas"]["Counters"];
                    };
                    "text/plain": string;
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    headMetrics: {
        parameters: {
            query?: {
                /** @description `json`: the counters as JSON (the default); `prometheus`: the Prometheus text format, version 0.0.4 */
                format?: "json" | "prometheus";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the counters. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    submitNewsletter: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it. Without it (not a browser) nothing is refused for it. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Submission_Newsletter"];
                "application/x-www-form-urlencoded": components["schemas"]["Submission_Newsletter"];
                "multipart/form-data": components["schemas"]["Submission_Newsletter"];
            };
        };
        responses: {
            /** @description OK: accepted (also a honeypot hit or a submission quarantined as spam). */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ok"];
                };
            };
            /** @description Bad Request: `invalid_body`, `validation`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_body"] | components["schemas"]["ValidationError_Newsletter"];
                };
            };
            /** @description Forbidden: `origin_not_allowed` (the `Origin` is not in `allowed_origins`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_origin_not_allowed"];
                };
            };
            /** @description Request Timeout: `request_timeout`. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_request_timeout"];
                };
            };
            /** @description Payload Too Large: `body_too_large`. */
            413: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_body_too_large"];
                };
            };
            /** @description Too Many Requests: `rate_limited` (more than 10 submissions an hour from one address; try again after `Retry-After` seconds). */
            429: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    "Retry-After": components["headers"]["Retry-After"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_rate_limited"];
                };
            };
            /** @description Internal Server Error: `storage_failed`, `send_failed`, `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_storage_failed_or_send_failed_or_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable`. */
            503: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    preflightNewsletter: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it. Without it (not a browser) nothing is refused for it. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: from an allowed origin, the CORS headers; without an `Origin`, `Allow` only. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers.optional"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods.optional"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Allow: components["headers"]["Allow.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Forbidden: `origin_not_allowed`. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_origin_not_allowed"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    confirmNewsletter: {
        parameters: {
            query: {
                /** @description The token of the link in the mail. */
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: an HTML page: the address is confirmed. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Gone: an HTML page: the link is used, expired or without its token. */
            410: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable` (the shared store cannot be reached; the link works again once it is back). */
            503: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    showPreferences: {
        parameters: {
            query: {
                /** @description The token of the link in the mail. */
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: an HTML page: the lists of the address, to join and leave. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Bad Request: an HTML page: the link is not a valid preference link. */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable` (the shared store cannot be reached; the link works again once it is back). */
            503: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    savePreferences: {
        parameters: {
            query: {
                /** @description The token of the link in the mail. */
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    action?: "save" | "leave_all";
                    lists?: string;
                };
            };
        };
        responses: {
            /** @description OK: an HTML page: the lists of the address, to join and leave. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Bad Request: an HTML page: the link is not a valid preference link. */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Payload Too Large: `body_too_large`. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_body_too_large"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable` (the shared store cannot be reached; the link works again once it is back). */
            503: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    showUnsubscribeNewsletter: {
        parameters: {
            query: {
                /** @description The token of the link in the mail. */
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: an HTML page: a page whose button unsubscribes (a POST to the same link). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Bad Request: an HTML page: the link is not a valid unsubscribe link. */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable` (the shared store cannot be reached; the link works again once it is back). */
            503: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    unsubscribeNewsletter: {
        parameters: {
            query: {
                /** @description The token of the link in the mail. */
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    "List-Unsubscribe"?: "One-Click";
                };
            };
        };
        responses: {
            /** @description OK: an HTML page: the address is unsubscribed. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Bad Request: an HTML page: the link is not a valid unsubscribe link. */
            400: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable` (the shared store cannot be reached; the link works again once it is back). */
            503: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: {
                /** @description An entity tag of an earlier answer. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: this document. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                    };
                };
            };
            /** @description Not Modified: the document is the one the client holds. */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    headOpenApi: {
        parameters: {
            query?: never;
            header?: {
                /** @description An entity tag of an earlier answer. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: this document. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the document is the one the client holds. */
            304: {
                headers: {
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
}
