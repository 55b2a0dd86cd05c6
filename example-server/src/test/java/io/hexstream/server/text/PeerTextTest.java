package io.hexstream.server.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** Peer text escaped to printable ASCII on one line, bounded, and left alone by a second escape. */
class PeerTextTest {

    @Test
    void printableAsciiIsLeftAsItIs() {
        String plain = "POST /engine/v1/blobs/v2?x=1 ~{}\\";
        assertSame(plain, PeerText.escape(plain));
        assertEquals("null", PeerText.escape(null));
        assertEquals("", PeerText.escape(""));
    }

    @Test
    void newlineEscAndBelBecomeVisibleEscapes() {
        assertEquals(
                "\\x1b[31mX\\nFAKE LOG LINE\\x07\\r\\t\\x00\\x7f\\x9b\\xe9\\u2028\\ud83d\\ude00",
                PeerText.escape("\u001b[31mX\nFAKE LOG LINE\u0007\r\t\u0000\u007f\u009b\u00e9\u2028\ud83d\ude00"));
    }

    @Test
    void longTextIsCutWithAMarkerAndNoEscapeIsCutInTwo() {
        assertEquals("abcde...(3 more chars)", PeerText.escape("abcdefgh", 5));
        assertEquals("abcde", PeerText.escape("abcde", 5));
        // "\x1b" would end past the bound: it is left out whole
        assertEquals("abc...(2 more chars)", PeerText.escape("abc\u001bd", 5));
        String longPath = "/" + "a".repeat(10_000);
        String escaped = PeerText.escape(longPath);
        assertEquals(longPath.substring(0, PeerText.MAX_CHARS) + "...(9801 more chars)", escaped);
    }

    @Test
    void escapingTwiceChangesNothing() {
        String once = PeerText.escape("a\nb\u001bc\\x1b");
        assertEquals("a\\nb\\x1bc\\x1b", once);
        assertSame(once, PeerText.escape(once));
    }
}
