package io.sluice.testkit.child;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS (one NameNode, one DataNode) in a child JVM: {@code MiniHdfsMain <base-dir> <namenode-port>}.
 *
 * <p>Port 0 picks a free port on first start; the parent passes the same port again on restart, so clients
 * reconnect to the same address. It prints {@code SLUICE-READY hdfs://127.0.0.1:<port>} once the DataNode is up,
 * then runs until the process is stopped.
 *
 * <p>The DataNode alone stops when a file {@code datanode.stop} appears in the working folder, and starts again on the
 * same ports when {@code datanode.start} does; each is deleted once done (or once it failed, said as
 * {@code SLUICE-DATANODE <n> failed <why>}), and said as {@code SLUICE-DATANODE <n>
 * stopped|started}, {@code n} counting them from 1. A file, since the parent has no other way in.
 */
public final class MiniHdfsMain {

    private MiniHdfsMain() {
    }

    public static void main(String[] args) throws Exception {
        File base = new File(args[0]);
        int port = Integer.parseInt(args[1]);
        // port 0 is a first start; a restart passes the port it had, and must keep the data it had
        boolean format = port == 0;

        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.getAbsolutePath());
        conf.setInt("dfs.replication", 1);
        // bind everything to loopback, never to the machine's other interfaces
        conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
        conf.set("dfs.namenode.http-address", "127.0.0.1:0");
        conf.set("dfs.datanode.address", "127.0.0.1:0");
        conf.set("dfs.datanode.http.address", "127.0.0.1:0");
        conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
        // a lease a dead writer left behind is recovered in seconds, as the recovery tests need
        conf.setLong("dfs.namenode.lease-recheck-interval-ms", 1000);
        // the NameNode hands a lease recovery's block recovery to the DataNode in its next heartbeat: every 3 s by
        // default, which each crash test's restart on HDFS waited out (3-7 s of ArchiveCrashTest's evict cases)
        conf.setLong("dfs.heartbeat.interval", 1);

        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf)
                .numDataNodes(1)
                .nameNodePort(port)
                .format(format)
                .manageNameDfsDirs(true)
                .build();
        cluster.waitActive();
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::shutdown, "hdfs-shutdown"));
        System.out.println("SLUICE-READY hdfs://127.0.0.1:" + cluster.getNameNodePort());
        System.out.flush();
        controlDataNode(cluster);
    }

    /** Stops and starts the DataNode as asked by files (see the class comment), until the process is stopped. */
    private static void controlDataNode(MiniDFSCluster cluster) throws Exception {
        Path stop = Path.of("datanode.stop");
        Path start = Path.of("datanode.start");
        MiniDFSCluster.DataNodeProperties stopped = null;
        int events = 0;
        while (true) {
            boolean stopAsked = stopped == null && Files.exists(stop);
            boolean startAsked = stopped != null && Files.exists(start);
            if (stopAsked || startAsked) {
                Path asked = stopAsked ? stop : start;
                String said = "SLUICE-DATANODE " + ++events + " ";
                try {
                    if (stopAsked) {
                        stopped = cluster.stopDataNode(0);
                    } else {
                        cluster.restartDataNode(stopped, true);
                        cluster.waitActive();
                        stopped = null;
                    }
                    said += stopAsked ? "stopped" : "started";
                } catch (Exception | Error e) {
                    // said at once: the parent waits for this line, and would otherwise wait out its timeout
                    said += "failed " + e;
                }
                Files.delete(asked);
                System.out.println(said);
                System.out.flush();
            }
            Thread.sleep(50);
        }
    }
}
