package io.sluice.testkit.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SharedS3;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Object;

class S3ServerTest {

    private static final int MIB = 1024 * 1024;

    @Test
    void multipartUploadRoundTripsWithRangedReadsListingAndDelete() {
        S3Server s3 = SharedS3.server();
        String bucket = s3.createBucket("multipart");
        byte[] data = new byte[12 * MIB + 12345];
        new Random(42).nextBytes(data);
        // 5 MiB parts except the last, as S3 itself demands
        int[] partSizes = {5 * MIB, 5 * MIB, data.length - 10 * MIB};

        try (S3Client client = s3.client()) {
            String uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key("a/b/object.bin")).uploadId();
            List<CompletedPart> parts = new ArrayList<>();
            int offset = 0;
            for (int i = 0; i < partSizes.length; i++) {
                int number = i + 1;
                byte[] part = Arrays.copyOfRange(data, offset, offset + partSizes[i]);
                offset += partSizes[i];
                String etag = client.uploadPart(b -> b.bucket(bucket).key("a/b/object.bin").uploadId(uploadId)
                        .partNumber(number), RequestBody.fromBytes(part)).eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            assertTrue(client.listObjectsV2(b -> b.bucket(bucket)).contents().isEmpty(),
                    "an upload that is not completed is invisible");
            client.completeMultipartUpload(b -> b.bucket(bucket).key("a/b/object.bin").uploadId(uploadId)
                    .multipartUpload(m -> m.parts(parts)));

            List<S3Object> listed = client.listObjectsV2(b -> b.bucket(bucket).prefix("a/")).contents();
            assertEquals(1, listed.size());
            assertEquals(data.length, listed.get(0).size());
            byte[] whole = client.getObject(b -> b.bucket(bucket).key("a/b/object.bin"), ResponseTransformer.toBytes())
                    .asByteArray();
            assertArrayEquals(data, whole);
            byte[] range = client.getObject(b -> b.bucket(bucket).key("a/b/object.bin").range("bytes=5242870-5242889"),
                    ResponseTransformer.toBytes()).asByteArray();
            assertArrayEquals(Arrays.copyOfRange(data, 5242870, 5242890), range);

            client.deleteObject(b -> b.bucket(bucket).key("a/b/object.bin"));
            assertTrue(client.listObjectsV2(b -> b.bucket(bucket)).contents().isEmpty());
        }
    }

    @Test
    void anOutageRefusesRequestsAndARestartServesTheSameData() {
        try (S3Server s3 = S3Server.start("s3-outage"); S3Client client = s3.client()) {
            String bucket = s3.createBucket("outage");
            client.putObject(b -> b.bucket(bucket).key("kept"), RequestBody.fromString("before the outage"));

            s3.stop();
            assertThrows(SdkClientException.class, () -> client.headBucket(b -> b.bucket(bucket)));

            s3.start();
            assertEquals("before the outage",
                    client.getObjectAsBytes(b -> b.bucket(bucket).key("kept")).asUtf8String());
        }
    }
}
