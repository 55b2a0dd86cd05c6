package io.hexstream.server.metrics;

import io.hexstream.server.text.PeerText;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.List;

/**
 * The summary of one HTTP response of the Engine API (to JSON-RPC requests, or a binary getBlobs route), for the
 * metrics and the access log. A route makes it with the four first fields; the transport adds what the request's
 * headers say of its client ({@link #withRequestHeaders}), for the access log only (never a metric label).
 *
 * @param method the method label: a method's name, or one of {@link ServerMetrics}'s labels for a batch, an unknown
 *     method, an invalid request or a body that did not parse
 * @param hashes versioned hashes asked for (getBlobs; summed over a batch), else 0
 * @param hits blobs returned, else 0
 * @param error the first error among the replies, or {@code null} if every reply is a result
 * @param clientVersion the request's {@value #CLIENT_VERSION} (execution-apis #793, {@code refactor.md},
 *     "Authentication"; e.g. {@code LH/v6.2.1}), escaped and bounded ({@link PeerText}, {@link #MAX_CLIENT_VERSION}
 *     characters and the marker), or {@code null} if it has none
 * @param traceparent the request's W3C {@value #TRACEPARENT} if well-formed ({@link #traceparent(List)}), else
 *     {@code null}
 */
public record ResponseSummary(
        String method, int hashes, int hits, ReplyError error, String clientVersion, String traceparent) {
    /** The request header naming the consensus client's version. */
    public static final String CLIENT_VERSION = "x-engine-client-version";
    /** The W3C Trace Context request header (https://www.w3.org/TR/trace-context/, section 3.2). */
    public static final String TRACEPARENT = "traceparent";
    /** The longest {@link #clientVersion} kept, characters of output before {@link PeerText}'s marker. */
    public static final int MAX_CLIENT_VERSION = 64;

    /** {@code traceparent}'s length in version {@code 00}: {@code 2+1+32+1+16+1+2}. */
    private static final int TRACEPARENT_LENGTH = 55;

    /** A summary without the request's client headers: what a route makes. */
    public ResponseSummary(String method, int hashes, int hits, ReplyError error) {
        this(method, hashes, hits, error, null, null);
    }

    /** {@code ok}, or the first error's code. */
    public String outcome() {
        return outcome(error);
    }

    /** The outcome label of a reply: {@code ok}, or the error's code, e.g. {@code -32602}. */
    public static String outcome(ReplyError error) {
        return error == null ? "ok" : error.label();
    }

    /**
     * This summary with what {@code headers} (the request's) say of the client: its first {@value #CLIENT_VERSION},
     * escaped and bounded, and its {@value #TRACEPARENT} if it has exactly one, well-formed; itself if they say
     * nothing.
     */
    public ResponseSummary withRequestHeaders(HttpHeaders headers) {
        if (headers.isEmpty()) {
            return this;
        }
        String version = headers.get(CLIENT_VERSION);
        String trace = traceparent(headers.getAll(TRACEPARENT));
        if (version == null && trace == null) {
            return this;
        }
        return new ResponseSummary(
                method,
                hashes,
                hits,
                error,
                version == null ? null : PeerText.escape(version, MAX_CLIENT_VERSION),
                trace);
    }

    /**
     * The {@code traceparent} of a request with {@code values} (the header's values) if it is well-formed (W3C Trace
     * Context, section 3.2: exactly one header, {@code version-traceid-parentid-flags} of 2, 32, 16 and 2 lower-case
     * hex digits, the version not {@code ff}, neither id all zeros; version {@code 00} exactly 55 characters, a later
     * one at least 55 with a {@code -} after them, of which the 55 are kept), else {@code null}.
     */
    static String traceparent(List<String> values) {
        if (values.size() != 1) {
            return null;
        }
        String value = values.get(0).trim();
        if (value.length() < TRACEPARENT_LENGTH
                || value.charAt(2) != '-'
                || value.charAt(35) != '-'
                || value.charAt(52) != '-'
                || !lowerHex(value, 0, 2)
                || !lowerHex(value, 3, 35)
                || !lowerHex(value, 36, 52)
                || !lowerHex(value, 53, 55)
                || value.startsWith("ff")
                || zeros(value, 3, 35)
                || zeros(value, 36, 52)) {
            return null;
        }
        if (value.startsWith("00")) {
            return value.length() == TRACEPARENT_LENGTH ? value : null;
        }
        return value.length() == TRACEPARENT_LENGTH || value.charAt(TRACEPARENT_LENGTH) == '-'
                ? value.substring(0, TRACEPARENT_LENGTH)
                : null;
    }

    private static boolean lowerHex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zeros(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }
}
