package io.hexstream.server.rpc;

import java.util.List;

/**
 * The {@code params} of a request as the parser found them, read by a method in the shape it takes; any other shape is
 * {@code -32602 Invalid params} (JSON-RPC 2.0, "Parameter Structures": params by name are a valid request, which no
 * method here takes). Positional params are each a {@code String}, an array ({@code List<String>}, or a
 * {@link DecodedArray} for a method with an {@link ElementReader}) or {@link #OTHER}; nothing else is kept from the
 * request.
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
        return (List<String>) one(List.class, "an array of strings");
    }

    /**
     * The one param, an array its method's {@link ElementReader} decoded, e.g. {@code [["0x…", …]]}.
     *
     * @throws RpcException {@code -32602} for any other shape (an element that is not a string included)
     */
    public DecodedArray oneDecodedArray() throws RpcException {
        return (DecodedArray) one(DecodedArray.class, "an array of strings");
    }

    private Object one(Class<?> type, String what) throws RpcException {
        if (byName || positional.size() != 1 || !type.isInstance(positional.get(0))) {
            throw invalid("expected one param, " + what);
        }
        return positional.get(0);
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

    /**
     * Param {@code index} of exactly {@code count}, an array its method's {@link ElementReader} decoded: e.g. the
     * versioned hashes of {@code [["0x…", …], "0x…"]}.
     *
     * @param expected the params' shape, for the error message ({@code "two params, …"})
     * @throws RpcException {@code -32602} if there are not {@code count} params or this one is not an array of strings
     */
    public DecodedArray decodedArray(int index, int count, String expected) throws RpcException {
        checkCount(count, expected);
        if (!(positional.get(index) instanceof DecodedArray array)) {
            throw invalid("expected " + expected + "; param " + (index + 1) + " is not an array of strings");
        }
        return array;
    }

    /**
     * Param {@code index} of exactly {@code count}, a string.
     *
     * @param expected the params' shape, for the error message
     * @throws RpcException {@code -32602} if there are not {@code count} params or this one is not a string
     */
    public String string(int index, int count, String expected) throws RpcException {
        checkCount(count, expected);
        if (!(positional.get(index) instanceof String text)) {
            throw invalid("expected " + expected + "; param " + (index + 1) + " is not a string");
        }
        return text;
    }

    private void checkCount(int count, String expected) throws RpcException {
        if (byName || positional.size() != count) {
            throw invalid("expected " + expected + (byName ? "" : "; got " + positional.size()));
        }
    }

    private RpcException invalid(String expected) {
        return new RpcException(
                RpcError.INVALID_PARAMS,
                byName ? "params by name are not supported; " + expected + ", by position" : expected);
    }
}
