package io.hexstream.jmh.e2e;

import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.http.Http1Responder;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcReply;
import io.hexstream.server.rpc.RpcResult;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.AbstractReferenceCounted;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code sendfile} server: {@link PrerenderedRenderer}'s exact bytes, rendered once per request shape the first
 * time it is seen, but written to a file (in {@code dir}, deleted on {@link #close}) and sent as one
 * {@link DefaultFileRegion} of the whole file: {@code FileChannel.transferTo}, on Linux {@code sendfile(2)}, page cache
 * to socket with no copy through user space. It asks whether digits cached in files beat the direct-memory write of
 * {@code prerendered}.
 *
 * <p>The response is a {@link ChunkedInput} (so the pipeline's {@code ChunkedWriteHandler} writes it, and no main code
 * changes): its chunks are the head ({@code Content-Length} exact, no chunked encoding), the file region, then
 * {@link LastHttpContent#EMPTY_LAST_CONTENT}; {@code HttpObjectEncoder} passes the region through as is. Each shape's
 * file stays open, one {@link FileChannel} shared by all its regions (positional transfers: no per-request
 * {@code open}/{@code close}); a region, made only when {@code ChunkedWriteHandler} asks for it and then owned by the
 * pipeline, is released by the transport when sent or failed, and that release leaves the shared channel open.
 * {@link #close} reports to standard error how many regions were made and released.
 *
 * <p>Over NIO (the server's transport) the head is one {@code write} and the body {@code sendfile} calls as the socket
 * drains, where {@code prerendered} sends head and body in one gathering write. The whole body is one write for the
 * server's {@code StalledWriteTimeout}: a reader must take all of it (35 MB at 128 blobs) within the write timeout, not
 * one 256 KiB chunk of it; no matter over loopback.
 */
final class SendfileRenderer implements ResponseRenderer, AutoCloseable {
    private final Path dir;
    private final ResponseWriter writer = new ResponseWriter();
    private final RenderedShapes<Rendered> files = new RenderedShapes<>(this::write, SendfileRenderer::delete);
    private final AtomicLong regions = new AtomicLong();
    private final AtomicLong released = new AtomicLong();

    /** A shape's body in a file: where it is, the channel its regions share, its length. */
    private record Rendered(Path path, FileChannel channel, long length) {}

    SendfileRenderer(Path dir) {
        this.dir = dir;
    }

    @Override
    public RpcReply reply(byte[] id, RpcResult result) {
        return files.reply(id, result);
    }

    @Override
    public void render(Replies replies, ReplySink sink) {
        ResponseSummary summary = replies.summary();
        Rendered file = files.rendered(replies);
        Http1Responder responder = (Http1Responder) sink; // the baseline writes HTTP/1.1 framing of its own
        responder.respond(
                new Response(
                        BesuWholeBodyRenderer.withHeaders(
                                responder.keepAlive(),
                                new DefaultHttpResponse(responder.version(), HttpResponseStatus.OK),
                                file.length()),
                        file),
                file.length(),
                summary);
    }

    private Rendered write(Replies replies) {
        ByteBuf bytes = PrerenderedRenderer.render(writer, replies);
        Path path = null;
        try {
            path = Files.createTempFile(dir, "sendfile-", ".json");
            path.toFile().deleteOnExit(); // should close not run
            try (FileChannel out = FileChannel.open(path, StandardOpenOption.WRITE)) {
                for (ByteBuffer nio = bytes.nioBuffer(); nio.hasRemaining(); ) {
                    out.write(nio);
                }
            }
            return new Rendered(path, FileChannel.open(path, StandardOpenOption.READ), bytes.readableBytes());
        } catch (IOException e) {
            if (path != null) {
                path.toFile().delete();
            }
            throw new UncheckedIOException(e);
        } finally {
            bytes.release();
        }
    }

    /** Closes and deletes a file rendered twice (another thread's copy kept). */
    private static void delete(Rendered file) {
        try {
            file.channel().close();
            Files.deleteIfExists(file.path());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        for (Rendered file : files.all()) {
            file.channel().close();
            Files.deleteIfExists(file.path());
        }
        files.clear();
        System.err.println("sendfile: " + regions.get() + " file regions made, " + released.get() + " released");
    }

    /**
     * One response: head, file region, end. Holds nothing until the region is read (and that is then the pipeline's),
     * so closing it ({@code ChunkedWriteHandler} does at the end, on failure and on disconnect) or releasing it
     * unwritten (the server's {@code InOrderExchange} does on disconnect) frees nothing.
     */
    private final class Response extends AbstractReferenceCounted implements ChunkedInput<Object> {
        private static final int HEAD = 0;
        private static final int REGION = 1;
        private static final int LAST = 2;
        private static final int DONE = 3;
        private final HttpResponse head;
        private final Rendered file;
        private int next = HEAD;

        Response(HttpResponse head, Rendered file) {
            this.head = head;
            this.file = file;
        }

        @Override
        public boolean isEndOfInput() {
            return next == DONE;
        }

        @Override
        public void close() {
            next = DONE;
        }

        @Deprecated
        @Override
        public Object readChunk(ChannelHandlerContext ctx) {
            return readChunk(ctx.alloc());
        }

        @Override
        public Object readChunk(ByteBufAllocator allocator) {
            return switch (next) {
                case HEAD -> {
                    next = REGION;
                    yield head;
                }
                case REGION -> {
                    next = LAST;
                    yield new Region(file);
                }
                case LAST -> {
                    next = DONE;
                    yield LastHttpContent.EMPTY_LAST_CONTENT;
                }
                default -> null;
            };
        }

        @Override
        public long length() {
            return file.length();
        }

        @Override
        public long progress() {
            return next >= LAST ? file.length() : 0;
        }

        @Override
        protected void deallocate() {
            close();
        }

        @Override
        public Response touch(Object hint) {
            return this;
        }
    }

    /** The whole file as a region of its shape's shared channel, which its release leaves open. */
    private final class Region extends DefaultFileRegion {
        Region(Rendered file) {
            super(file.channel(), 0, file.length());
            regions.incrementAndGet();
        }

        @Override
        protected void deallocate() {
            released.incrementAndGet();
        }
    }
}
