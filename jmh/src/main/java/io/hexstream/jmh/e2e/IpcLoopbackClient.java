package io.hexstream.jmh.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * The {@code ipc} connection kind: one connection to the server's Unix domain socket ({@code --ipc-path}), no JWT; each
 * request a line, each reply read to its line feed into a reused buffer.
 */
final class IpcLoopbackClient implements EngineConnection {
    private final SocketChannel channel;
    private final ByteBuffer sink = ByteBuffer.allocateDirect(1 << 16);

    IpcLoopbackClient(Path socket) throws IOException {
        channel = SocketChannel.open(UnixDomainSocketAddress.of(socket));
    }

    /** {@code json} as one line. */
    static byte[] line(String json) {
        return (json + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public long exchange(byte[] request) throws IOException {
        return exchange(request, null);
    }

    @Override
    public byte[] fetch(byte[] request) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(1 << 20);
        exchange(request, body);
        return body.toByteArray();
    }

    private long exchange(byte[] request, ByteArrayOutputStream keep) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(request);
        while (out.hasRemaining()) {
            channel.write(out);
        }
        long total = 0;
        while (true) {
            sink.clear();
            if (channel.read(sink) < 0) {
                throw new IOException("closed in a reply");
            }
            sink.flip();
            int n = sink.remaining();
            boolean ended = n > 0 && sink.get(n - 1) == '\n'; // one reply in flight: a line feed ends it
            int body = ended ? n - 1 : n;
            if (keep != null) {
                byte[] bytes = new byte[body];
                sink.get(bytes);
                keep.write(bytes);
            }
            total += body;
            if (ended) {
                return total;
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
