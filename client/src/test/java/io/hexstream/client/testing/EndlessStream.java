package io.hexstream.client.testing;

import java.io.InputStream;

/** A body that never ends: {@code head}, then {@code unit} repeated forever; counts the bytes served. */
public final class EndlessStream extends InputStream {
    private final byte[] head;
    private final byte[] unit;
    private long position;

    public EndlessStream(byte[] head, byte[] unit) {
        this.head = head;
        this.unit = unit;
    }

    /** Bytes served so far. */
    public long served() {
        return position;
    }

    @Override
    public int read() {
        byte b = position < head.length ? head[(int) position] : unit[(int) ((position - head.length) % unit.length)];
        position++;
        return b & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        for (int i = 0; i < len; i++) {
            b[off + i] = (byte) read();
        }
        return len;
    }
}
