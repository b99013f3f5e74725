package io.sluice.testkit.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.SharedHdfs;
import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class HdfsServerTest {

    @Test
    void writesRenamesAndReadsBackAFile() throws IOException {
        HdfsServer hdfs = SharedHdfs.server();
        byte[] data = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(data);
        Configuration conf = new Configuration();
        conf.setBoolean("fs.hdfs.impl.disable.cache", true);
        try (FileSystem fs = FileSystem.get(hdfs.uri(), conf)) {
            Path temp = new Path("/sluice-test/_tmp/file.bin");
            Path visible = new Path("/sluice-test/dt=2026-11-21/file.bin");
            try (FSDataOutputStream out = fs.create(temp, true)) {
                out.write(data);
                out.hsync();
            }
            fs.mkdirs(visible.getParent());
            assertTrue(fs.rename(temp, visible));
            assertFalse(fs.exists(temp));
            assertEquals(data.length, fs.getFileStatus(visible).getLen());
            byte[] read = new byte[data.length];
            try (FSDataInputStream in = fs.open(visible)) {
                in.readFully(read);
            }
            assertArrayEquals(data, read);
        }
    }
}
