package io.hexstream.server.tx;

import static io.hexstream.server.tx.TransactionRefusedException.undecodable;

/**
 * Checks that bytes are well-formed RLP before web3j decodes them: every item's header fits, every item lies within the
 * list that holds it, and lists nest at most {@link #MAX_DEPTH} deep. web3j's decoder trusts the declared lengths, so a
 * few hundred bytes whose nested lists claim more than their parent holds made it re-read overlapping regions until the
 * heap ran out (found by fuzzing); after this check its work is linear in the input. One pass, no allocation but a
 * small stack of list ends.
 */
final class RlpStructure {
    /** A blob transaction nests five deep (network form, body, access list, entry, storage keys). */
    static final int MAX_DEPTH = 32;

    private RlpStructure() {}

    static void check(byte[] rlp) throws TransactionRefusedException {
        int[] listEnds = new int[MAX_DEPTH];
        int depth = 0;
        int pos = 0;
        while (pos < rlp.length) {
            while (depth > 0 && listEnds[depth - 1] == pos) {
                depth--;
            }
            int limit = depth == 0 ? rlp.length : listEnds[depth - 1];
            int prefix = rlp[pos] & 0xFF;
            if (prefix < 0x80) {
                pos++;
                continue;
            }
            boolean list = prefix >= 0xC0;
            int shortBase = list ? 0xC0 : 0x80;
            int header = 1;
            long length;
            if (prefix <= shortBase + 55) {
                length = prefix - shortBase;
            } else {
                int lengthBytes = prefix - shortBase - 55;
                if (lengthBytes > 4 || pos + 1 + lengthBytes > limit) {
                    throw undecodable("malformed or truncated encoding");
                }
                length = 0;
                for (int i = 1; i <= lengthBytes; i++) {
                    length = length << 8 | (rlp[pos + i] & 0xFF);
                }
                header += lengthBytes;
            }
            long end = pos + header + length;
            if (end > limit) {
                throw undecodable("malformed or truncated encoding");
            }
            if (list) {
                if (depth == MAX_DEPTH) {
                    throw undecodable("lists nested too deeply");
                }
                listEnds[depth++] = (int) end;
                pos += header;
            } else {
                pos = (int) end;
            }
        }
    }
}
