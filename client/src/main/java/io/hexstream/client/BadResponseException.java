package io.hexstream.client;

/**
 * A response that is well-formed JSON (or not read at all) but not a getBlobs answer to the call: an HTTP status other
 * than 200, a JSON-RPC envelope without {@code result} or {@code error}, or a result of the wrong shape, e.g.
 * {@code result[3]: BlobAndProofV2 with 127 proofs, expected 128}. The message is one line, naming the path where it
 * applies. (Malformed JSON or hex is the codec's {@link io.hexstream.codec.json.JsonDecodeException}, with the byte
 * offset.)
 */
public final class BadResponseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadResponseException(String message) {
        super(message);
    }
}
