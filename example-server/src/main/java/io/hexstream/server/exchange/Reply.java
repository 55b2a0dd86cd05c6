package io.hexstream.server.exchange;

import io.hexstream.codec.body.StreamedBody;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.ReferenceCountUtil;

/**
 * A reply as it was handed to a {@link ReplySink}, waiting in line until its transport makes of it what it writes
 * ({@link InOrderExchange#encode}). Holds one reference, given back by {@link #release()} if it is never written.
 */
public sealed interface Reply {

    /** Gives back what the reply holds: for a reply that is not written. */
    void release();

    /** An exact-length body streamed as the transport drains. */
    record Streamed(HttpResponseStatus status, StreamedBody body) implements Reply {
        @Override
        public void release() {
            body.release();
        }
    }

    /** A small body given whole, with the route's headers. */
    record Whole(HttpResponseStatus status, HttpHeaders headers, ByteBuf content) implements Reply {
        @Override
        public void release() {
            content.release();
        }
    }

    /** No body. */
    record Empty(HttpResponseStatus status) implements Reply {
        @Override
        public void release() {}
    }

    /**
     * A message in the transport's own terms, written as it is: e.g. an HTTP/1.1 transport's refusals and its switch of
     * protocols.
     */
    record Message(Object message) implements Reply {
        @Override
        public void release() {
            ReferenceCountUtil.release(message);
        }
    }
}
