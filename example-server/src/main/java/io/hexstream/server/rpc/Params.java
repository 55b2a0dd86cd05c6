package io.hexstream.server.rpc;

import java.util.List;

/**
 * The {@code params} of a request as the parser found them, read by a method in the shape it takes;
 * any other shape is {@code -32602 Invalid params} (JSON-RPC 2.0, "Parameter Structures": params by
 * name are a valid request, which no method here takes). Positional params are each a {@code String},
 * a {@code List<String>} or {@link #OTHER}; nothing else is kept from the request.
 */
public final class Params {
    /** A param that is neither a string nor an array of strings (no method here takes one). */
    static final Object OTHER = new Object() {
        @Override
        public String toString() {
            return "a value that is neither a string nor an array of strings";
        }
    };
    /** No {@code params} member. */
    static final Params NONE = new Params(List.of(), false);
    /** {@code params} given as an object. */
    static final Params BY_NAME = new Params(List.of(), true);

    private final List<Object> positional;
    private final boolean byName;

    private Params(List<Object> positional, boolean byName) {
        this.positional = positional;
        this.byName = byName;
    }

    static Params positional(List<Object> values) {
        return new Params(List.copyOf(values), false);
    }

    /**
     * The one param, an array of strings, e.g. {@code [["0x…", …]]}.
     *
     * @throws RpcException {@code -32602} for any other shape
     */
    @SuppressWarnings("unchecked")
    public List<String> oneStringArray() throws RpcException {
        if (byName || positional.size() != 1 || !(positional.get(0) instanceof List)) {
            throw invalid("expected one param, an array of strings");
        }
        return (List<String>) positional.get(0);
    }

    /**
     * The one param, a string, e.g. {@code ["0x…"]}.
     *
     * @param what what the string is, for the error message
     * @throws RpcException {@code -32602} for any other shape
     */
    public String oneString(String what) throws RpcException {
        if (byName || positional.size() != 1 || !(positional.get(0) instanceof String text)) {
            throw invalid("expected one param, " + what);
        }
        return text;
    }

    private RpcException invalid(String expected) {
        return new RpcException(RpcError.INVALID_PARAMS, byName ? "params by name are not supported; " + expected
                + ", by position" : expected);
    }
}
