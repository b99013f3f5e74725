package io.sluice.storage.backend;

import io.sluice.core.Causes;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.ipc.RemoteException;

/**
 * Which failures of Hadoop's HDFS client mean that HDFS is away rather than refusing: the client retries a NameNode
 * that does not answer for a few seconds only, and a write whose DataNodes are gone fails at once, so a run stopped at
 * the first failed write (exit 1) during an outage of a minute, where S3's retries ride one out (a new user's run).
 * By name only, as {@code TransientFailure} does for Kafka: a connection refused, reset, closed or timed out; a
 * NameNode that is starting (safe mode), standing by or asks to be asked again; no DataNode to write to (none running,
 * every running one excluded by the writer, or all failed in the write's pipeline), or none to read a block from. A permission, a quota, full disks or a path refused is not an outage, nor is
 * a failure not named here. Some of these words also come from a mistake (a port that is not a NameNode's answers by
 * closing the connection): the run treats them as an outage only once this store took a file in the same command.
 *
 * <p>Threading: stateless.
 */
final class HdfsOutage {

    /** An exception's class and the network's word for it. */
    private record Lost(Class<? extends Throwable> type, String words) {
    }

    /**
     * The network's word for a connection that failed, by the exception's class (Hadoop's client keeps the class); the
     * first that matches wins, since a ConnectException is a SocketException too.
     */
    private static final List<Lost> CONNECTION_LOST = List.of(
            new Lost(ConnectException.class, "connection refused"),
            new Lost(NoRouteToHostException.class, "no route to host"),
            new Lost(SocketTimeoutException.class, "timed out"),
            // the NameNode's connection closed under a call: Hadoop's client says it with an EOFException
            new Lost(EOFException.class, "the connection closed"),
            new Lost(SocketException.class, "the connection was reset"));
    /**
     * The same said by the operating system through NIO, which throws a plain IOException (Hadoop's client then wraps
     * it: "Failed on local exception: java.io.IOException: Broken pipe").
     */
    private static final List<String> CONNECTION_LOST_WORDS = List.of("Broken pipe", "Connection reset");
    /** What a NameNode answers while it cannot serve yet, by the remote exception's class name. */
    private static final Map<String, String> NAMENODE_NOT_READY = Map.of(
            "org.apache.hadoop.hdfs.server.namenode.SafeModeException", "the NameNode is in safe mode, as after a start",
            "org.apache.hadoop.ipc.StandbyException", "the NameNode is standing by",
            "org.apache.hadoop.ipc.RetriableException", "the NameNode asks to be asked again");
    /**
     * No DataNode takes the block: the NameNode's "could only be written to 0 of the 1 minReplication nodes. There are
     * 0 datanode(s) running" (with DataNodes running, the same words mean full disks or DataNodes the client cannot
     * reach by their addresses: a person's to mend), and the client's "All datanodes [...] are bad. Aborting..." or
     * "Failed to replace a bad datanode" once the DataNodes of a write's pipeline failed.
     */
    private static final List<String> NO_DATANODE = List.of("There are 0 datanode(s) running", "are bad. Aborting",
            "Failed to replace a bad datanode");

    /**
     * The NameNode's count in a refused block: DataNodes it believes run, and of them those the writer excluded after it
     * could not reach them. Every running one excluded is a DataNode away (a restart: the NameNode counts one as running
     * until its heartbeats are missed for ten minutes), or one never reachable from here, which only a store that never
     * took a file shows (see the class comment); fewer excluded means full disks, a person's to mend.
     */
    private static final Pattern RUNNING_AND_EXCLUDED =
            Pattern.compile("There are (\\d+) datanode\\(s\\) running and (\\d+) node\\(s\\) are excluded");

    private HdfsOutage() {
    }

    /** How {@code failure} or one of its causes shows HDFS away, in words; empty when none does. */
    static Optional<String> of(Throwable failure) {
        for (Throwable cause : Causes.of(failure)) {
            Optional<String> words = words(cause);
            if (words.isPresent()) {
                return words;
            }
        }
        return Optional.empty();
    }

    private static boolean everyDataNodeExcluded(String message) {
        Matcher count = RUNNING_AND_EXCLUDED.matcher(message);
        return count.find() && Long.parseLong(count.group(2)) >= Long.parseLong(count.group(1));
    }

    private static Optional<String> words(Throwable cause) {
        for (Lost lost : CONNECTION_LOST) {
            if (lost.type().isInstance(cause)) {
                return Optional.of(lost.words());
            }
        }
        if (cause instanceof BlockMissingException) {
            // a read (a recovery's of a staged file, an audit's) found none of the block's DataNodes: they are down,
            // as in a DataNode's restart, or the block is lost; a start again tells which, and says this again if lost
            return Optional.of("no DataNode serves a block of the file (the DataNodes that hold it are down, or the "
                    + "block is lost)");
        }
        if (cause instanceof RemoteException remote && NAMENODE_NOT_READY.containsKey(remote.getClassName())) {
            return Optional.of(NAMENODE_NOT_READY.get(remote.getClassName()));
        }
        String message = String.valueOf(cause.getMessage());
        if (CONNECTION_LOST_WORDS.stream().anyMatch(message::contains)) {
            return Optional.of("the connection was reset");
        }
        if (NO_DATANODE.stream().anyMatch(message::contains) || everyDataNodeExcluded(message)) {
            return Optional.of("no DataNode takes the file's blocks");
        }
        return Optional.empty();
    }
}
