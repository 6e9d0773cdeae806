// Made by `npm run build` (scripts/client-types.mjs) with openapi-typescript from the blog listener's /openapi.json,
// served with reference-config.toml beside this file. Not edited by hand.
export interface paths {
    "/api/blog/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        /** The CORS preflight of any path under /api/blog; other methods there are `404 not_found` */
        options: operations["preflightApi"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/blog/comments/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A proof-of-work challenge for a comment (docs/spam.md "Proof of work") */
        get: operations["challengeComments"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightCommentsChallenge"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/blog/feed.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** JSON Feed 1.1 of the newest posts */
        get: operations["getJsonFeed"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightJsonFeed"];
        /** JSON Feed 1.1 of the newest posts */
        head: operations["headJsonFeed"];
        patch?: never;
        trace?: never;
    };
    "/api/blog/feed.xml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** RSS 2.0 of the newest posts */
        get: operations["getRss"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightRss"];
        /** RSS 2.0 of the newest posts */
        head: operations["headRss"];
        patch?: never;
        trace?: never;
    };
    "/api/blog/media/{slug}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An image beside a published post in a folder (docs/blog.md "Images beside a post") */
        get: operations["getMedia"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightMedia"];
        /** An image beside a published post in a folder (docs/blog.md "Images beside a post") */
        head: operations["headMedia"];
        patch?: never;
        trace?: never;
    };
    "/api/blog/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of posts, newest first, filtered by language, tag and words */
        get: operations["getPosts"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightPosts"];
        /** A page of posts, newest first, filtered by language, tag and words */
        head: operations["headPosts"];
        patch?: never;
        trace?: never;
    };
    "/api/blog/posts/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A post; `lang` picks a version */
        get: operations["getPost"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightPost"];
        /** A post; `lang` picks a version */
        head: operations["headPost"];
        patch?: never;
        trace?: never;
    };
    "/api/blog/posts/{slug}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The published comments of a post version */
        get: operations["getComments"];
        put?: never;
        /**
         * Send a comment
         * @description docs/comments.md "Sending a comment". A form sent without script (form-encoded, not asking for JSON, from a page of an allowed origin) is answered 303.
         */
        post: operations["postComment"];
        delete?: never;
        /** CORS preflight */
        options: operations["preflightComments"];
        /** The published comments of a post version */
        head: operations["headComments"];
        patch?: never;
        trace?: never;
    };
    "/api/blog/site": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The site */
        get: operations["getSite"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightSite"];
        /** The site */
        head: operations["headSite"];
        patch?: never;
        trace?: never;
    };
    "/api/blog/sitemap.xml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sitemap of every published version */
        get: operations["getSitemap"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightSitemap"];
        /** The sitemap of every published version */
        head: operations["headSitemap"];
        patch?: never;
        trace?: never;
    };
    "/api/blog/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tags with their counts */
        get: operations["getTags"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightTags"];
        /** The tags with their counts */
        head: operations["headTags"];
        patch?: never;
        trace?: never;
    };
    "/comments.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The comment widget, for any page */
        get: operations["getCommentWidget"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The comment widget, for any page */
        head: operations["headCommentWidget"];
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
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the blog answers, and how many versions are published */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightHealth"];
        /** Whether the blog answers, and how many versions are published */
        head: operations["headHealth"];
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
    "/webmention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a webmention
         * @description docs/comments.md "Webmentions". The source is checked in the background; its status is read at `Location`.
         */
        post: operations["postWebmention"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webmention/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The status of a webmention */
        get: operations["getWebmentionStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** The status of a webmention */
        head: operations["headWebmentionStatus"];
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
        /** @description The error catalogue's body for `bad_request`. */
        Error_bad_request: {
            /** @enum {string} */
            error: "bad_request";
            /** @description A fixed text that never repeats the input, such as "The request could not be read." */
            message: string;
        };
        /** @description The error catalogue's body for `bad_request`, `invalid_body`. */
        Error_bad_request_or_invalid_body: {
            /** @enum {string} */
            error: "bad_request" | "invalid_body";
            /** @description A fixed text that never repeats the input, such as "The request could not be read." */
            message: string;
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
        /** @description The error catalogue's body for `invalid_body`, `invalid_query`, `spam`. */
        Error_invalid_body_or_invalid_query_or_spam: {
            /** @enum {string} */
            error: "invalid_body" | "invalid_query" | "spam";
            /** @description A fixed text that never repeats the input, such as "The request body could not be read." */
            message: string;
        };
        /** @description The error catalogue's body for `invalid_query`. */
        Error_invalid_query: {
            /** @enum {string} */
            error: "invalid_query";
            /** @description A fixed text that never repeats the input, such as "The query is not valid." */
            message: string;
        };
        /** @description The error catalogue's body for `invalid_query`, `bad_request`. */
        Error_invalid_query_or_bad_request: {
            /** @enum {string} */
            error: "invalid_query" | "bad_request";
            /** @description A fixed text that never repeats the input, such as "The query is not valid." */
            message: string;
        };
        /** @description The error catalogue's body for `not_found`. */
        Error_not_found: {
            /** @enum {string} */
            error: "not_found";
            /** @description A fixed text that never repeats the input. */
            message?: string;
        };
        /** @description The error catalogue's body for `not_found`, `draft`. */
        Error_not_found_or_draft: {
            /** @enum {string} */
            error: "not_found" | "draft";
            /** @description A fixed text that never repeats the input. */
            message?: string;
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
        /** @description The error catalogue's body for `unavailable`. */
        Error_unavailable: {
            /** @enum {string} */
            error: "unavailable";
            /** @description A fixed text that never repeats the input, such as "The service is briefly unavailable. Please try again in a moment." */
            message: string;
        };
        /** @description JSON Feed 1.1 of the 20 newest posts. */
        JsonFeed: {
            description: string;
            feed_url: string;
            home_page_url: string;
            items: {
                authors?: {
                    name: string;
                }[];
                content_html: string;
                /** Format: date-time */
                date_modified?: string;
                /** Format: date-time */
                date_published: string;
                id: string;
                image?: string;
                summary: string;
                tags: string[];
                title: string;
                url: string;
            }[];
            language: string;
            title: string;
            /** @enum {string} */
            version: "https://jsonfeed.org/version/1.1";
        };
        /** @description A post: its summary, its Markdown and its HTML. */
        PostDetail: {
            /** @description The post's author, else the site's, else null. */
            author: string | null;
            /** @description The Markdown. */
            body: string;
            cover: {
                alt: string | null;
                /** @description An absolute URL. */
                url: string;
            } | null;
            /**
             * Format: date
             * @description The publication day, `YYYY-MM-DD` as written.
             */
            date: string;
            /** @description A digest of this version's front matter and Markdown: another digest, another content (docs/blog.md "What the API answers"). */
            digest: string;
            /** @description Plain text of at most 280 characters. */
            excerpt: string;
            /** @description The post's fediverse handle, else the site's, else null. */
            fediverse_creator: string | null;
            /** @description The rendered HTML. */
            html: string;
            lang: string;
            /** @description Minutes. */
            reading_time: number;
            slug: string;
            tags: string[];
            title: string;
            /** @description The digest of every other published language, by language. */
            translation_digests: {
                [key: string]: string;
            };
            /** @description The API URL of every other published language, by language. */
            translations: {
                [key: string]: string;
            };
            /** @description The API URL of this version. */
            url: string;
        };
        /** @description One page of posts, newest first. */
        PostsPage: {
            has_next: boolean;
            has_prev: boolean;
            page: number;
            page_size: number;
            posts: components["schemas"]["PostSummary"][];
            total: number;
        };
        /** @description A post in a list. */
        PostSummary: {
            /** @description The post's author, else the site's, else null. */
            author: string | null;
            cover: {
                alt: string | null;
                /** @description An absolute URL. */
                url: string;
            } | null;
            /**
             * Format: date
             * @description The publication day, `YYYY-MM-DD` as written.
             */
            date: string;
            /** @description A digest of this version's front matter and Markdown: another digest, another content (docs/blog.md "What the API answers"). */
            digest: string;
            /** @description Plain text of at most 280 characters. */
            excerpt: string;
            /** @description The post's fediverse handle, else the site's, else null. */
            fediverse_creator: string | null;
            lang: string;
            /** @description Minutes. */
            reading_time: number;
            slug: string;
            tags: string[];
            title: string;
            /** @description The digest of every other published language, by language. */
            translation_digests: {
                [key: string]: string;
            };
            /** @description The API URL of every other published language, by language. */
            translations: {
                [key: string]: string;
            };
            /** @description The API URL of this version. */
            url: string;
        };
        /** @description The `[site]` section. */
        Site: {
            author: string;
            /** @description `[site] base_url` */
            base_url: string;
            description: string;
            /** @description A fediverse handle `@user@host`, or null. */
            fediverse_creator: string | null;
            language: string;
            title: string;
        };
        /** @description The tags of published primary versions, most used first. */
        Tags: {
            tags: {
                count: number;
                name: string;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The request headers a page may send (CORS). */
        "Access-Control-Allow-Headers": string;
        /** @description The request headers a page may send (CORS). */
        "Access-Control-Allow-Headers.optional": string;
        /** @description The methods a page may use (CORS). */
        "Access-Control-Allow-Methods": string;
        /** @description The methods a page may use (CORS). */
        "Access-Control-Allow-Methods.optional": string;
        /** @description The origin allowed to read the answer: the request's `Origin` when it is allowed, `*` for public answers. */
        "Access-Control-Allow-Origin": string;
        /** @description The origin allowed to read the answer: the request's `Origin` when it is allowed, `*` for public answers. */
        "Access-Control-Allow-Origin.optional": string;
        /** @description Seconds a browser may keep the preflight's answer. */
        "Access-Control-Max-Age": string;
        /** @description How long the answer may be kept. */
        "Cache-Control": string;
        /** @description The strong entity tag of the answer; send it back in `If-None-Match` to get a `304` while it is unchanged. */
        ETag: string;
        /** @description Where the client is sent. */
        Location: string;
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
    preflightApi: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    challengeComments: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it, and it must be one of `allowed_origins`. */
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
            /** @description Not Found: `not_found` (proof of work is off). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found"];
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
    preflightCommentsChallenge: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it, and it must be one of `allowed_origins`. */
                Origin?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: the CORS headers of an allowed origin. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers.optional"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods.optional"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    getJsonFeed: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: json feed 1.1 of the newest posts */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/feed+json": components["schemas"]["JsonFeed"];
                };
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    preflightJsonFeed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headJsonFeed: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: json feed 1.1 of the newest posts */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getRss: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: rss 2.0 of the newest posts */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/rss+xml": string;
                };
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    preflightRss: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headRss: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: rss 2.0 of the newest posts */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getMedia: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path: {
                file: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: an image beside a published post in a folder (docs/blog.md "images beside a post") */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                };
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `bad_request`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_bad_request"];
                };
            };
            /** @description Not Found: `not_found`. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    preflightMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headMedia: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path: {
                file: string;
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: an image beside a published post in a folder (docs/blog.md "images beside a post") */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `bad_request`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_bad_request"];
                };
            };
            /** @description Not Found: `not_found`. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getPosts: {
        parameters: {
            query?: {
                /** @description Versions in that language (case-insensitive), plus `all_langs` posts; empty: no filter. */
                lang?: string;
                /** @description Posts per page, from 1 to 100. Digits only (at most 15). */
                limit?: string;
                /** @description The page, from 1. A page past the end is an empty list. Digits only (at most 15). */
                page?: string;
                /** @description Words separated by spaces; each must occur in the title or the body (docs/blog.md "How `q` compares text"); empty: no filter. */
                q?: string;
                /** @description Posts with that tag, case-insensitive, whole tag; empty: no filter. */
                tag?: string;
            };
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: a page of posts, newest first, filtered by language, tag and words */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostsPage"];
                };
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `invalid_query`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_query"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    preflightPosts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headPosts: {
        parameters: {
            query?: {
                /** @description Versions in that language (case-insensitive), plus `all_langs` posts; empty: no filter. */
                lang?: string;
                /** @description Posts per page, from 1 to 100. Digits only (at most 15). */
                limit?: string;
                /** @description The page, from 1. A page past the end is an empty list. Digits only (at most 15). */
                page?: string;
                /** @description Words separated by spaces; each must occur in the title or the body (docs/blog.md "How `q` compares text"); empty: no filter. */
                q?: string;
                /** @description Posts with that tag, case-insensitive, whole tag; empty: no filter. */
                tag?: string;
            };
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: a page of posts, newest first, filtered by language, tag and words */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `invalid_query`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_query"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getPost: {
        parameters: {
            query?: {
                /** @description The language version to give; given at most once. */
                lang?: string;
            };
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: a post; `lang` picks a version */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostDetail"];
                };
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `invalid_query`, `bad_request`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_query_or_bad_request"];
                };
            };
            /** @description Not Found: `not_found`, `draft`. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found_or_draft"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    preflightPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headPost: {
        parameters: {
            query?: {
                /** @description The language version to give; given at most once. */
                lang?: string;
            };
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: a post; `lang` picks a version */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `invalid_query`, `bad_request`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_query_or_bad_request"];
                };
            };
            /** @description Not Found: `not_found`, `draft`. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found_or_draft"];
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getComments: {
        parameters: {
            query?: {
                /** @description The language version, as for the post; given at most once. */
                lang?: string;
            };
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the published comments, oldest first. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        comments: {
                            author: {
                                name: string;
                                url: string | null;
                            };
                            /** @description RFC 3339, to the second (`2026-11-29T10:00:00.000Z`). */
                            created_at: string;
                            /** @description The comment's Markdown rendered without raw HTML, links `rel="nofollow ugc"`. */
                            html: string;
                            /** @description Letters a-z and digits (`tkp8qxa3f2`): `#comment-<id>` on a page, and what a reply's `parent` names. */
                            id: string;
                            /**
                             * @description "comment", or what a webmention is (docs/comments.md "Webmentions").
                             * @enum {string}
                             */
                            kind: "comment" | "reply" | "like" | "repost" | "bookmark" | "mention";
                            /** @description The comment this one answers; null at the top of the thread. */
                            parent: string | null;
                        }[];
                        total: number;
                    };
                };
            };
            /** @description Not Modified: the thread the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `invalid_query`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_query"];
                };
            };
            /** @description Not Found: `not_found`. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found"];
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
            /** @description Service Unavailable: `unavailable`. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    postComment: {
        parameters: {
            query?: {
                /** @description The language version, as for the post; given at most once. */
                lang?: string;
            };
            header?: {
                /** @description The page's origin; a browser sends it, and it must be one of `allowed_origins`. */
                Origin?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The solution to a challenge of GET /api/blog/comments/challenge, when proof of work is on. */
                    altcha?: string;
                    /** @description Kept for moderation, never shown. */
                    email?: string;
                    name: string;
                    /** @description With an email: a mail for each published reply, once the address confirmed (docs/comments.md "Reply notifications"). */
                    notify?: boolean | ("1" | "on" | "true" | "yes");
                    /** @description The id of a published comment of the same post version. */
                    parent?: string;
                    /** @description Markdown, at most 10000 characters; raw HTML is shown as text. */
                    text: string;
                    /** @description An http or https address. */
                    url?: string;
                    /** @description The honeypot: left empty by people. */
                    website?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @description The solution to a challenge of GET /api/blog/comments/challenge, when proof of work is on. */
                    altcha?: string;
                    /** @description Kept for moderation, never shown. */
                    email?: string;
                    name: string;
                    /** @description With an email: a mail for each published reply, once the address confirmed (docs/comments.md "Reply notifications"). */
                    notify?: boolean | ("1" | "on" | "true" | "yes");
                    /** @description The id of a published comment of the same post version. */
                    parent?: string;
                    /** @description Markdown, at most 10000 characters; raw HTML is shown as text. */
                    text: string;
                    /** @description An http or https address. */
                    url?: string;
                    /** @description The honeypot: left empty by people. */
                    website?: string;
                };
                "multipart/form-data": {
                    /** @description The solution to a challenge of GET /api/blog/comments/challenge, when proof of work is on. */
                    altcha?: string;
                    /** @description Kept for moderation, never shown. */
                    email?: string;
                    name: string;
                    /** @description With an email: a mail for each published reply, once the address confirmed (docs/comments.md "Reply notifications"). */
                    notify?: boolean | ("1" | "on" | "true" | "yes");
                    /** @description The id of a published comment of the same post version. */
                    parent?: string;
                    /** @description Markdown, at most 10000 characters; raw HTML is shown as text. */
                    text: string;
                    /** @description An http or https address. */
                    url?: string;
                    /** @description The honeypot: left empty by people. */
                    website?: string;
                };
            };
        };
        responses: {
            /** @description Accepted: published now, or waiting for a person. */
            202: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "pending" | "published";
                    };
                };
            };
            /** @description See Other: back to the page, at `#comment-<id>` or `#comment-pending`. */
            303: {
                headers: {
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `invalid_body`, `invalid_query`, `spam`, `validation`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_body_or_invalid_query_or_spam"] | {
                        details: {
                            /** @enum {string} */
                            field: "name" | "email" | "url" | "text" | "parent";
                            message: string;
                        }[];
                        /** @enum {string} */
                        error: "validation";
                    };
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
            /** @description Not Found: `not_found` (no such post, it takes no comments, or its thread is closed). */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found"];
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
            /** @description Too Many Requests: `rate_limited` (more than `rate_limit_per_hour` comments an hour from one address). */
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
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
            /** @description Service Unavailable: `unavailable`. */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    preflightComments: {
        parameters: {
            query?: never;
            header?: {
                /** @description The page's origin; a browser sends it, and it must be one of `allowed_origins`. */
                Origin?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: the CORS headers of an allowed origin. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers.optional"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods.optional"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin.optional"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headComments: {
        parameters: {
            query?: {
                /** @description The language version, as for the post; given at most once. */
                lang?: string;
            };
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the published comments, oldest first. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the thread the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: `invalid_query`. */
            400: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_invalid_query"];
                };
            };
            /** @description Not Found: `not_found`. */
            404: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found"];
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
            /** @description Service Unavailable: `unavailable`. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_unavailable"];
                };
            };
        };
    };
    getSite: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the site */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Site"];
                };
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    preflightSite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headSite: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the site */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getSitemap: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the sitemap of every published version */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/xml": string;
                };
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    preflightSitemap: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headSitemap: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the sitemap of every published version */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getTags: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the tags with their counts */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tags"];
                };
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    preflightTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headTags: {
        parameters: {
            query?: never;
            header?: {
                /** @description Entity tags of earlier answers. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: the tags with their counts */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    Vary: components["headers"]["Vary.optional"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Modified: the answer the client holds is current. */
            304: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    getCommentWidget: {
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
            /** @description OK: the <postbox-comments> widget, an ES module, kept an hour, compressed when the request takes brotli or gzip (an ETag per encoding). */
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
    headCommentWidget: {
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
            /** @description OK: the <postbox-comments> widget, an ES module, kept an hour, compressed when the request takes brotli or gzip (an ETag per encoding). */
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
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: whether the blog answers, and how many versions are published */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Published versions. */
                        posts: number;
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Internal Server Error: `internal_error`. */
            500: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
                };
            };
        };
    };
    preflightHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content: any page may call the API. */
            204: {
                headers: {
                    "Access-Control-Allow-Headers": components["headers"]["Access-Control-Allow-Headers"];
                    "Access-Control-Allow-Methods": components["headers"]["Access-Control-Allow-Methods"];
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Access-Control-Max-Age": components["headers"]["Access-Control-Max-Age"];
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
    headHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: whether the blog answers, and how many versions are published */
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
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_internal_error"];
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
    postWebmention: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @description The page that links to the post: an http or https URL. */
                    source: string;
                    /** @description The post's public page on site.base_url. */
                    target: string;
                };
            };
        };
        responses: {
            /** @description Accepted: taken; checked in the background. */
            202: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Location: components["headers"]["Location"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        location: string;
                        /** @enum {string} */
                        status: "pending";
                    };
                };
            };
            /** @description Bad Request: `bad_request`, `invalid_body` (the target is not a post taking webmentions, or the source cannot be one). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_bad_request_or_invalid_body"];
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
            /** @description Too Many Requests: `rate_limited` (more than 60 webmentions an hour from one source host). */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_rate_limited"];
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
    getWebmentionStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: pending, accepted, or refused with the reason. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        reason?: string;
                        /** @enum {string} */
                        status: "pending" | "accepted" | "refused";
                    };
                };
            };
            /** @description Not Found: `not_found` (no webmention of that id in this process). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found"];
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
    headWebmentionStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK: pending, accepted, or refused with the reason. */
            200: {
                headers: {
                    "Access-Control-Allow-Origin": components["headers"]["Access-Control-Allow-Origin"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not Found: `not_found` (no webmention of that id in this process). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error_not_found"];
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
}
