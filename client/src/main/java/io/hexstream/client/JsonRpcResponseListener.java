package io.hexstream.client;

import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.json.StringValue;
import java.math.BigDecimal;

/**
 * Reads a JSON-RPC 2.0 response object (JSON-RPC 2.0, section 5): {@code "jsonrpc": "2.0"}, an {@code id} (the
 * request's number, where given; else any value, not checked), and exactly one of {@code result}, whose tokens are
 * handed to the result's listener from its first to its last, and {@code error} ({@code code}, an integer;
 * {@code message}, a string; {@code data} skipped; an {@code "error": null} beside a result, as some servers write, is
 * no error). Members in any order; members it does not know are skipped whatever their value. Anything else is a
 * {@link ResponseFault}.
 */
final class JsonRpcResponseListener implements JsonTokenListener {
    // What the value about to begin is, by where it is: the envelope (depth 0), its members (depth 1), the error's.
    private static final int SKIP = 0;
    private static final int ENVELOPE = 1;
    private static final int JSONRPC = 2;
    private static final int RESULT = 3;
    private static final int ERROR = 4;
    private static final int CODE = 5;
    private static final int MESSAGE = 6;

    private final JsonTokenListener result;
    private final boolean checksId;
    private final long id;

    private int depth;
    /** Non-zero while a value of no interest is skipped: the depth of its inside. */
    private int skipDepth;
    /** The value of the member whose name was read last, at depth 1 or in the error object. */
    private int member = SKIP;

    private boolean inResult;
    private boolean inError;
    private boolean sawVersion;
    private boolean sawResult;
    private boolean sawError;
    private boolean sawCode;
    /** Whether the value beginning here is the {@code id} member's. */
    private boolean atId;

    private boolean idMatches;
    private long code;
    private String message;

    /** Hands the {@code result} member's value to {@code result}; any {@code id}. */
    JsonRpcResponseListener(JsonTokenListener result) {
        this(result, false, 0);
    }

    /**
     * Hands the {@code result} member's value to {@code result}; a result's {@code id} must be the number {@code id}.
     */
    JsonRpcResponseListener(JsonTokenListener result, long id) {
        this(result, true, id);
    }

    private JsonRpcResponseListener(JsonTokenListener result, boolean checksId, long id) {
        this.result = result;
        this.checksId = checksId;
        this.id = id;
    }

    /** Whether the response was an error; after the document has ended. */
    boolean isError() {
        return sawError;
    }

    /** The error as an exception; when {@link #isError()}. */
    RpcErrorException error() {
        return new RpcErrorException(code, message);
    }

    // ---------------------------------------------------------------- containers

    @Override
    public void beginObject() {
        if (inResult || beginsResultContainer()) {
            depth++;
            result.beginObject();
            return;
        }
        if (skipDepth == 0) {
            switch (value()) {
                case ENVELOPE -> {}
                case ERROR -> {
                    sawError = once(sawError, "error");
                    inError = true;
                }
                case SKIP -> skipDepth = depth + 1;
                default -> throw wrongValue("an object");
            }
        }
        depth++;
        member = SKIP;
    }

    @Override
    public void beginArray() {
        try {
            arrayBegins();
        } catch (ResponseFault fault) {
            throw fault.openingArray();
        }
    }

    /** {@link #beginArray()}, whose faults (this listener's and the result's) are told apart for their path. */
    private void arrayBegins() {
        if (inResult || beginsResultContainer()) {
            depth++;
            result.beginArray();
            return;
        }
        if (skipDepth == 0) {
            if (value() != SKIP) {
                throw wrongValue("an array");
            }
            skipDepth = depth + 1;
        }
        depth++;
    }

    @Override
    public void endObject() {
        depth--;
        if (inResult) {
            inResult = depth > 1;
            result.endObject();
        } else if (skipDepth != 0) {
            skipDepth = depth < skipDepth ? 0 : skipDepth;
        } else if (depth == 0) {
            endEnvelope();
        } else if (inError) {
            inError = false;
            if (!sawCode || message == null) {
                throw new ResponseFault("error object without " + (sawCode ? "message" : "code"));
            }
        }
    }

    @Override
    public void endArray() {
        depth--;
        if (inResult) {
            inResult = depth > 1;
            result.endArray();
        } else {
            skipDepth = depth < skipDepth ? 0 : skipDepth;
        }
    }

    private boolean beginsResultContainer() {
        inResult = beginsResult();
        return inResult;
    }

    /** Whether the value beginning here is the {@code result} member's (then it is handed on, all of it). */
    private boolean beginsResult() {
        if (!isResult()) {
            return false;
        }
        sawResult = once(sawResult, "result");
        return true;
    }

    /** Whether the value here is the {@code result} member's, outside it (a scalar result, or its container). */
    private boolean isResult() {
        return skipDepth == 0 && value() == RESULT;
    }

    /** What the value beginning here is. */
    private int value() {
        return depth == 0 ? ENVELOPE : depth == 1 || inError && depth == 2 ? member : SKIP;
    }

    // ---------------------------------------------------------------- names and scalars

    @Override
    public void name(CharSequence name) {
        if (inResult) {
            result.name(name);
        } else if (skipDepth == 0 && depth == 1) {
            atId = is(name, "id");
            member = is(name, "jsonrpc")
                    ? JSONRPC
                    : is(name, "result") ? RESULT : is(name, "error") ? ERROR : SKIP; // id and others
        } else if (skipDepth == 0 && inError && depth == 2) {
            member = is(name, "code") ? CODE : is(name, "message") ? MESSAGE : SKIP; // data and others
        }
    }

    @Override
    public void stringStart(StringValue value) {
        if (inResult || beginsResult()) {
            result.stringStart(value);
            return;
        }
        switch (skipDepth != 0 ? SKIP : value()) {
            case JSONRPC, MESSAGE -> {} // read as text
            case SKIP -> value.skip();
            default -> throw wrongValue("a string");
        }
    }

    @Override
    public void string(CharSequence text) {
        if (inResult || isResult()) {
            result.string(text);
        } else if (skipDepth == 0 && value() == JSONRPC) {
            if (!is(text, "2.0")) {
                throw ResponseFault.expected("\"2.0\"", "\"" + text + "\"");
            }
            sawVersion = once(sawVersion, "jsonrpc");
        } else if (skipDepth == 0 && value() == MESSAGE) {
            once(message != null, "message");
            message = text.toString();
        }
    }

    @Override
    public void hexEnd(int length) {
        result.hexEnd(length); // only the result's listener picks hex
    }

    @Override
    public void number(CharSequence number) {
        if (inResult || beginsResult()) {
            result.number(number);
        } else if (skipDepth == 0 && depth == 1 && atId) {
            idMatches = checksId && new BigDecimal(number.toString()).compareTo(BigDecimal.valueOf(id)) == 0;
        } else if (skipDepth == 0 && value() == CODE) {
            sawCode = once(sawCode, "code");
            try {
                code = new BigDecimal(number.toString()).longValueExact();
            } catch (ArithmeticException e) {
                throw ResponseFault.expected("an integer", number.toString());
            }
        } else if (skipDepth == 0 && value() != SKIP) {
            throw wrongValue(number.toString());
        }
    }

    @Override
    public void bool(boolean value) {
        if (inResult || beginsResult()) {
            result.bool(value);
        } else if (skipDepth == 0 && value() != SKIP) {
            throw wrongValue(Boolean.toString(value));
        }
    }

    @Override
    public void nullValue() {
        if (inResult || beginsResult()) {
            result.nullValue();
        } else if (skipDepth == 0 && value() != SKIP && value() != ERROR) { // "error": null, as no error
            throw wrongValue("null");
        }
    }

    // ---------------------------------------------------------------- the envelope

    private void endEnvelope() {
        if (sawResult == sawError) {
            throw new ResponseFault(sawResult ? "both result and error" : "neither result nor error");
        }
        if (!sawVersion) {
            throw new ResponseFault("no \"jsonrpc\": \"2.0\"");
        }
        if (checksId && sawResult && !idMatches) {
            throw ResponseFault.at("id", "not the request's id " + id);
        }
    }

    private ResponseFault wrongValue(String found) {
        String expected = switch (value()) {
            case ENVELOPE -> "a JSON-RPC response object";
            case JSONRPC -> "\"2.0\"";
            case ERROR -> "an error object";
            case CODE -> "an integer";
            default -> "a string"; // MESSAGE
        };
        return ResponseFault.expected(expected, found);
    }

    private static boolean once(boolean seen, String name) {
        if (seen) {
            throw new ResponseFault("duplicate member " + name);
        }
        return true;
    }

    private static boolean is(CharSequence text, String expected) {
        return expected.contentEquals(text);
    }
}
