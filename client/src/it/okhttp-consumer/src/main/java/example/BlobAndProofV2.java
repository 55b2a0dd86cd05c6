package example;

import java.util.List;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;

/**
 * An entry of an {@code engine_getBlobsV2} result in the shape of Teku's {@code BlobAndProofV2}: the blob (131,072
 * bytes) and its 128 cell proofs (48 bytes each), as tuweni {@code Bytes}.
 */
public record BlobAndProofV2(Bytes blob, List<Bytes48> proofs) {}
