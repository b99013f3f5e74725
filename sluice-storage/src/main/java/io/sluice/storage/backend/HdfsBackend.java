package io.sluice.storage.backend;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;

/**
 * HDFS through the Hadoop FileSystem API. A file is written to a temporary file under the staging prefix (named by
 * {@link StagedName}), {@code hsync}'d and closed when finished, and renamed into place when published. A rename is
 * one atomic NameNode operation, so a crash leaves a file either staged or published, never both nor neither:
 * publishing again finds the target present and the staged file gone, and is done.
 *
 * <p>A writer that died (or a zombie that lost its partitions) may leave a staged file open, holding its HDFS lease.
 * Before publishing a staged file, the backend makes sure it is closed: it calls {@code recoverLease}, which ends the
 * old writer's lease and has the DataNodes settle the last block, and waits until the NameNode reports the file
 * closed, at most the configured lease recovery timeout. A zombie's later writes to that file then fail. A discarded
 * file is deleted at once, open or not: the delete ends its lease, and nothing of a later write shows.
 *
 * <p>Memory: each open file holds at most {@code dfs.client.write.max-packets-in-flight} packets of
 * {@code dfs.client-write-packet-size} bytes; this backend lowers the first to 16 (1 MiB per file with 64 KiB packets)
 * unless configured, and reports that bound to the memory budget.
 *
 * <p>Closing a file waits until the NameNode has heard from the DataNodes that they hold its last block. When it has
 * not yet, Hadoop's client sleeps before asking again ({@code dfs.client.block.write.locateFollowingBlock.initial.
 * delay.ms}, 400 ms), up to 5 times, each sleep twice the last (12.4 s in all). In one run of the crash tests on the
 * test HDFS that happened at about 500 closes, and a roll closes its files one after another, so an archive of many
 * folders spends much of its time asleep there. This backend starts at {@value #FIRST_CLOSE_POLL_MILLIS} ms and asks
 * up to {@value #CLOSE_POLLS} times (12.75 s in all) unless configured: 20 KB files written one after another took
 * 37–50 ms each on the test HDFS, against 186–196 ms with Hadoop's settings (three rounds of 40, alternately). The
 * same two settings pace the client's retries when it asks for a file's next block too early.
 *
 * <p>Threading: safe for concurrent use on different paths; Hadoop's FileSystem is.
 */
public final class HdfsBackend implements StorageBackend {

    /** Packets in flight per open file unless configured: bounds the client's buffer at 16 × 64 KiB. */
    static final int PACKETS_IN_FLIGHT = 16;
    /** The first wait for the NameNode to see a closed file's last block, and how many waits at most (see above). */
    static final int FIRST_CLOSE_POLL_MILLIS = 50;
    static final int CLOSE_POLLS = 8;
    private static final long FIRST_RECOVERY_POLL_MILLIS = 50;
    private static final long LAST_RECOVERY_POLL_MILLIS = 1_000;
    /** Asking for lease recovery again this long after an attempt that has not closed the file yet. */
    private static final long RECOVERY_RETRY_NANOS = 4_000_000_000L;

    private final HdfsConfig config;
    private final FileSystem fs;
    private final Path root;
    private final long bufferPerFile;

    public HdfsBackend(HdfsConfig config) throws IOException {
        this.config = config;
        Configuration conf = new Configuration();
        conf.setInt(HdfsClientConfigKeys.Write.MAX_PACKETS_IN_FLIGHT_KEY, PACKETS_IN_FLIGHT);
        conf.setInt(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY, FIRST_CLOSE_POLL_MILLIS);
        conf.setInt(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_RETRIES_KEY, CLOSE_POLLS);
        // Hadoop closes its file systems in a shutdown hook of its own, which races the engine's close (the last roll,
        // commit and publish) on SIGTERM: this backend is closed by its owner instead
        conf.setBoolean("fs.automatic.close", false);
        config.properties().forEach(conf::set);
        // our own instance, not the JVM-wide cache: closing this backend must not close another's file system
        this.fs = FileSystem.newInstance(config.fileSystem(), conf);
        this.root = fs.makeQualified(new Path(config.root()));
        this.bufferPerFile = (long) conf.getInt(HdfsClientConfigKeys.DFS_CLIENT_WRITE_PACKET_SIZE_KEY,
                HdfsClientConfigKeys.DFS_CLIENT_WRITE_PACKET_SIZE_DEFAULT)
                * conf.getInt(HdfsClientConfigKeys.Write.MAX_PACKETS_IN_FLIGHT_KEY, PACKETS_IN_FLIGHT);
    }

    @Override
    public PendingFile create(String path, String stagingPrefix) throws IOException {
        Path staging = resolve(stagingPrefix + StagedName.of(path));
        FSDataOutputStream out = fs.create(staging, false);
        PendingRef ref = new PendingRef(path, stagingPrefix + staging.getName());
        return new PendingFile() {
            @Override
            public OutputStream stream() {
                return out;
            }

            @Override
            public PendingRef finish() throws IOException {
                out.hsync(); // on the DataNodes' disks, not only in their memory
                out.close();
                return ref;
            }

            @Override
            public void abort() {
                try {
                    try {
                        out.close();
                    } catch (IOException e) {
                        // the stream may be broken already (that may be why we abort); the file goes anyway
                    }
                    fs.delete(staging, false);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot remove " + staging + "; the next recovery of this "
                            + "partition removes it", e);
                }
            }

            @Override
            public long bufferedBytes() {
                return bufferPerFile;
            }
        };
    }

    /**
     * Renames the staged file into place, replacing a file of the same name (an at-least-once replay writes the same
     * records again). Crash windows: before the rename, the file is still staged and this runs again; after it, the
     * staged file is gone and the target present, which is "done". A concurrent publisher of the same file (a late
     * zombie and the recovering owner) loses the rename race the same way.
     */
    @Override
    public boolean publish(PendingRef ref) throws IOException {
        Path staged = resolve(ref.staging());
        Path target = resolve(ref.path());
        if (fs.exists(staged)) {
            awaitClosed(staged);
            fs.mkdirs(target.getParent());
            try {
                FileUtil.rename(fs, staged, target, Options.Rename.OVERWRITE);
                return true;
            } catch (FileNotFoundException e) {
                // renamed meanwhile by another publisher: fall through to the check below
            }
        }
        if (!fs.exists(target)) {
            throw new CommittedFileGoneException("neither the staged file " + staged + " nor " + target
                    + " exists: the file a committed manifest names is gone", null);
        }
        return false;
    }

    @Override
    public void discard(PendingRef ref) throws IOException {
        // at once, also when another writer holds the file open: HDFS deletes a file under construction with its
        // lease, and that writer's close then fails. Waiting for lease recovery first (up to the recovery timeout a
        // file) held the lane whose first commit removes the leftovers of a dead writer, and gained nothing
        fs.delete(resolve(ref.staging()), false);
    }

    @Override
    public List<PendingRef> listStaged(String stagingPrefix) throws IOException {
        List<PendingRef> refs = new ArrayList<>();
        FileStatus[] files;
        try {
            files = fs.listStatus(resolve(stagingPrefix));
        } catch (FileNotFoundException e) {
            return refs;
        }
        for (FileStatus f : files) {
            if (f.isFile()) {
                String name = f.getPath().getName();
                StagedName.pathOf(name).ifPresent(path -> refs.add(new PendingRef(path, stagingPrefix + name)));
            }
        }
        return refs;
    }

    /**
     * Writes a temporary sibling, hsyncs it and renames it over the target: readers see the old or the new file. A
     * write that HDFS refused (a quota, a permission) removes its temporary file; one cut by an outage leaves it, since
     * asking a NameNode that is away to remove it would wait out the client's retries before the outage is said, and
     * every reader of the archive's own folders skips such a file by its name ({@code .<name>.<uuid>.tmp}).
     */
    @Override
    public void writeAtomically(String path, byte[] content) throws IOException {
        Path target = resolve(path);
        Path temp = new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + ".tmp");
        FSDataOutputStream out = fs.create(temp, false);
        try {
            try {
                out.write(content);
                out.hsync();
            } catch (IOException | RuntimeException e) {
                // not try-with-resources: a stream whose DataNodes failed throws the same exception again from
                // close(), and adding an exception to itself as suppressed throws "Self-suppression not permitted"
                closeAfter(e, out);
                throw e;
            }
            out.close();
            FileUtil.rename(fs, temp, target, Options.Rename.OVERWRITE);
        } catch (IOException | RuntimeException e) {
            if (HdfsOutage.of(e).isEmpty()) {
                deleteAfter(e, temp);
            }
            throw e;
        }
    }

    /** Closes {@code out} after {@code failure}, keeping a different failure of the close with it. */
    private static void closeAfter(Exception failure, FSDataOutputStream out) {
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            if (e != failure) {
                failure.addSuppressed(e);
            }
        }
    }

    /** Removes the temporary file of a failed write, keeping a failure to remove it with {@code failure}. */
    private void deleteAfter(Exception failure, Path temp) {
        try {
            fs.delete(temp, false);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e); // a leftover temporary file, named as one: nothing reads it
        }
    }

    @Override
    public void delete(String path) throws IOException {
        fs.delete(resolve(path), false);
    }

    @Override
    public Optional<byte[]> read(String path) throws IOException {
        try (InputStream in = fs.open(resolve(path))) {
            return Optional.of(in.readAllBytes());
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    @Override
    public void download(String path, java.nio.file.Path target) throws IOException {
        try (InputStream in = fs.open(resolve(path))) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (FileNotFoundException e) {
            throw new NoSuchFileException(describe() + path);
        }
    }

    @Override
    public long size(String path) throws IOException {
        FileStatus status;
        try {
            status = fs.getFileStatus(resolve(path));
        } catch (FileNotFoundException e) {
            throw new NoSuchFileException(describe() + path);
        }
        if (!status.isFile()) {
            throw new NoSuchFileException(describe() + path); // a folder of that name is no file
        }
        return status.getLen();
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        List<String> paths = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> files;
        try {
            files = fs.listFiles(resolve(prefix), true);
        } catch (FileNotFoundException e) {
            return paths;
        }
        String rootPrefix = root.toUri().getPath().endsWith("/") ? root.toUri().getPath() : root.toUri().getPath() + "/";
        while (files.hasNext()) {
            paths.add(files.next().getPath().toUri().getPath().substring(rootPrefix.length()));
        }
        paths.sort(null);
        return paths;
    }

    /** A file system's: 255 bytes a name (HDFS: {@code dfs.namenode.fs-limits.max-component-length}'s default). */
    @Override
    public int maxNameBytes() {
        return StagedName.MAX_NAME_BYTES;
    }

    /** HDFS down, unreachable, starting, or without a DataNode to write to ({@link HdfsOutage}). */
    @Override
    public Optional<String> outage(Throwable failure) {
        return HdfsOutage.of(failure);
    }

    @Override
    public String describe() {
        String where = root.toString();
        return where.endsWith("/") ? where : where + "/";
    }

    @Override
    public void close() throws IOException {
        fs.close();
    }

    /**
     * Makes sure nobody writes {@code file} any more: if it is still open (its writer died or is a zombie), recovers
     * its lease and waits until HDFS has closed it.
     *
     * @throws FileNotFoundException when the file does not exist
     */
    private void awaitClosed(Path file) throws IOException {
        if (!(fs instanceof LeaseRecoverable leases) || leases.isFileClosed(file)) {
            return; // file systems without leases (local, tests) have nothing to recover
        }
        long start = System.nanoTime();
        long deadline = start + config.leaseRecoveryTimeout().toNanos();
        long nextRecovery = start;
        long pause = FIRST_RECOVERY_POLL_MILLIS;
        while (true) {
            long now = System.nanoTime();
            if (now - nextRecovery >= 0) {
                // starts a recovery of the last block, or another one if the previous attempt stalled
                if (leases.recoverLease(file)) {
                    return;
                }
                nextRecovery = now + RECOVERY_RETRY_NANOS;
            } else if (leases.isFileClosed(file)) {
                return;
            }
            if (now - deadline > 0) {
                throw new IOException("HDFS did not close " + file + ", which a stopped writer left open, within "
                        + config.leaseRecoveryTimeout() + " of lease recovery. Check that the DataNodes holding its "
                        + "last block are up (hdfs fsck " + file.toUri().getPath() + " -openforwrite), then restart, "
                        + "or raise the lease recovery timeout");
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while recovering the lease of " + file);
            }
            pause = Math.min(pause * 2, LAST_RECOVERY_POLL_MILLIS);
        }
    }

    private Path resolve(String relative) {
        if (relative.startsWith("/") || java.util.Arrays.asList(relative.split("/")).contains("..")) {
            throw new IllegalArgumentException(relative + " is not a path inside the archive root " + root);
        }
        return relative.isEmpty() ? root : new Path(root, relative);
    }
}
