package io.hexstream.client;

/**
 * The most bytes a JSON-RPC reply to a getBlobs call may take, from the call alone (its method, its number of versioned
 * hashes and, for V4, of cells asked): a reply framed as one message (a WebSocket message, an IPC line) is refused past
 * it, so that a server cannot make the client read without end. Each entry is at most its hex values (execution-apis
 * {@code DATA}, {@code "0x"}, two digits a byte, the quotes and a separator), each with {@value #WHITESPACE_PER_VALUE}
 * bytes of whitespace (pretty-printing: a newline and its indentation), and {@value #ENTRY_FRAME} bytes of member
 * names, braces and brackets; an entry that is {@code null}, or a V4 cell and proof that are, is shorter. The envelope
 * ({@code jsonrpc}, {@code id}, {@code result}, an {@code error} and its message, members the reader skips) gets
 * {@value #ENVELOPE} bytes:
 *
 * <pre>
 * V1      envelope + n × (hex(131,072) + hex(48) + frame)                    n = 6: 1,640,956 bytes
 * V2, V3  envelope + n × (hex(131,072) + 128 × hex(48) + frame)              n = 128: 35,836,544 bytes
 * V4      envelope + n × (k × (hex(2,048) + hex(48)) + frame)   k cells asked; n = k = 128: 69,992,448 bytes
 * hex(b)  = 2 × b + 5 + whitespace
 * </pre>
 */
final class JsonReplySize {
    /** Whitespace allowed with each hex value: a pretty-printer's newline and indentation, generously. */
    static final int WHITESPACE_PER_VALUE = 32;
    /** An entry's member names, braces, brackets and the whitespace between them. */
    static final int ENTRY_FRAME = 256;
    /** The envelope: its members, an error's message, members the reader skips, and their whitespace. */
    static final int ENVELOPE = 64 * 1024;

    private JsonReplySize() {}

    /** The most bytes a reply to {@code call} may take. */
    static long max(GetBlobsCall call) {
        return ENVELOPE + call.hashes().size() * entry(call.method(), call.selectedCells().length);
    }

    /** The most bytes of one entry of {@code method}, {@code cells} cells asked (V4). */
    static long entry(BlobsMethod method, int cells) {
        long values = switch (method) {
            case V1, V2, V3 -> hex(BlobSizes.BLOB_SIZE) + method.proofsPerBlob() * hex(BlobSizes.PROOF_SIZE);
            case V4 -> cells * (hex(BlobSizes.CELL_SIZE) + hex(BlobSizes.PROOF_SIZE));
        };
        return values + ENTRY_FRAME;
    }

    /** A {@code DATA} value of {@code bytes}: {@code "0x…"}, a separator, whitespace. */
    private static long hex(int bytes) {
        return 2L * bytes + 5 + WHITESPACE_PER_VALUE;
    }
}
