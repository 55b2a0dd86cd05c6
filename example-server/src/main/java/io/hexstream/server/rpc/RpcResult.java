package io.hexstream.server.rpc;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.metrics.Tally;

/**
 * What a method returns for one call: the {@code result} member of its reply, which writes itself. The dispatcher
 * writes it once, into the reply's own {@link io.hexstream.codec.json.JsonBody}, when the method returns: the reply's
 * exact length (what the response cap counts) and its bytes come from that one description. Implementations are the
 * methods' own (the getBlobs shapes live with getBlobs).
 */
public interface RpcResult {
    /**
     * Writes the result as one JSON value into {@code b}, which retains what it keeps (a result holds nothing that must
     * be released). Called once per reply, on the thread that called the method.
     */
    void write(JsonBodyBuilder b);

    /** What the result counts toward its HTTP response's summary ({@link Tally#NONE} for most). */
    Tally tally();
}
