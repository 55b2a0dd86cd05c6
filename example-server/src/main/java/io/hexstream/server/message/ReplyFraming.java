package io.hexstream.server.message;

import io.netty.buffer.ByteBuf;
import io.netty.handler.stream.ChunkedInput;

/** How a transport frames the replies of a {@link MessageExchange}. One instance may serve every connection. */
public interface ReplyFraming {

    /** The transport's label in the metrics and the access log, e.g. {@code ws}. */
    String transport();

    /**
     * What is written for one reply: a {@link ChunkedInput} that a {@code ChunkedWriteHandler} drains as the socket
     * does, producing from {@code body}'s chunks (at most the chunk size each) the transport's framing of them, one
     * frame per chunk. Takes over {@code body}: closing the returned input closes it.
     */
    ChunkedInput<?> reply(ChunkedInput<ByteBuf> body);

    /**
     * What is written before the server closes the connection on its own (stopping, or idle), e.g. a WebSocket close
     * frame; {@code null} for nothing.
     */
    Object goodbye();
}
