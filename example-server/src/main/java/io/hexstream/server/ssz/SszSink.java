package io.hexstream.server.ssz;

/**
 * Where a {@link BlobsLayout} puts the parts of a body, in wire order: the one description of the bytes is the layout's
 * sequence of calls, which one sink counts (the length, the offsets) and another writes.
 */
interface SszSink {

    /** One byte, e.g. a {@code Boolean}: {@code 0x00} or {@code 0x01}. */
    void uint8(int value);

    /** A 4-byte offset, {@code uint32} little-endian. */
    void offset(int value);

    /** {@code length} bytes of {@code array} from {@code from}, as they are. */
    void bytes(byte[] array, int from, int length);

    /** {@code length} zero bytes. */
    void zeros(int length);

    /** Counts the bytes of the parts put in it. */
    final class Counter implements SszSink {
        private long bytes;

        /** The bytes counted since the last call, and the count reset. */
        long take() {
            long counted = bytes;
            bytes = 0;
            return counted;
        }

        @Override
        public void uint8(int value) {
            bytes++;
        }

        @Override
        public void offset(int value) {
            bytes += BlobsLayout.OFFSET;
        }

        @Override
        public void bytes(byte[] array, int from, int length) {
            bytes += length;
        }

        @Override
        public void zeros(int length) {
            bytes += length;
        }
    }
}
