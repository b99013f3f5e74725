package io.sluice.storage.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.util.Optional;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.Test;

/** Which of the HDFS client's failures are HDFS away, and which need a person, as the client throws them. */
class HdfsOutageTest {

    @Test
    void aConnectionLostAnywhereInTheCausesIsAnOutageInTheNetworksWord() {
        // Hadoop's client wraps a refused connection in one of the same class, with addresses and a URL
        IOException refused = new IOException("checkpoint failed", new ConnectException("Call From vm/127.0.0.1 to "
                + "localhost:8020 failed on connection exception: java.net.ConnectException: Connection refused"));
        assertEquals(Optional.of("connection refused"), HdfsOutage.of(refused));
        assertEquals(Optional.of("the connection closed"), HdfsOutage.of(new EOFException()));
        assertEquals(Optional.of("the connection was reset"), HdfsOutage.of(new IOException("DestHost:destPort "
                + "localhost:8020 , LocalHost:localPort vm/127.0.0.1:0. Failed on local exception: Broken pipe")));
    }

    @Test
    void aNameNodeNotReadyYetOrNoDataNodeIsAnOutage() {
        assertEquals(Optional.of("the NameNode is in safe mode, as after a start"), HdfsOutage.of(new RemoteException(
                "org.apache.hadoop.hdfs.server.namenode.SafeModeException", "Cannot create file. Name node is in safe "
                        + "mode.")));
        assertEquals(Optional.of("no DataNode takes the file's blocks"), HdfsOutage.of(new RemoteException(
                "java.io.IOException", "File /archive/x could only be written to 0 of the 1 minReplication nodes. "
                        + "There are 0 datanode(s) running and 0 node(s) are excluded in this operation.")));
        assertEquals(Optional.of("no DataNode takes the file's blocks"), HdfsOutage.of(new IOException(
                "All datanodes [DatanodeInfoWithStorage[127.0.0.1:9866,DS-1,DISK]] are bad. Aborting...")));
        // a DataNode restarting: the NameNode still counts it as running, the writer could not reach it
        assertEquals(Optional.of("no DataNode takes the file's blocks"), HdfsOutage.of(new RemoteException(
                "java.io.IOException", "File /archive/x could only be written to 0 of the 1 minReplication nodes. "
                        + "There are 1 datanode(s) running and 1 node(s) are excluded in this operation.")));
        // a read with the block's DataNodes down: the client tries each, asks the NameNode again three times, gives up
        assertEquals(Optional.of("no DataNode serves a block of the file (the DataNodes that hold it are down, or the "
                + "block is lost)"), HdfsOutage.of(new IOException("cannot recover clicks+0", new BlockMissingException(
                        "/archive/_staging/clicks+0+100.jsonl.zst", "Could not obtain block: BP-1:blk_1073741825_1001 "
                        + "file=/archive/_staging/clicks+0+100.jsonl.zst", 0))));
    }

    @Test
    void aRefusalIsNotAnOutage() {
        assertEquals(Optional.empty(), HdfsOutage.of(new RemoteException(
                "org.apache.hadoop.security.AccessControlException", "Permission denied: user=sluice, access=WRITE")));
        assertEquals(Optional.empty(), HdfsOutage.of(new RemoteException(
                "org.apache.hadoop.hdfs.protocol.DSQuotaExceededException", "The DiskSpace quota of /archive is "
                        + "exceeded")));
        // the same words with DataNodes running: full disks, or DataNodes the client cannot reach by their addresses
        assertEquals(Optional.empty(), HdfsOutage.of(new RemoteException("java.io.IOException", "File /archive/x "
                + "could only be written to 0 of the 1 minReplication nodes. There are 3 datanode(s) running and no "
                + "node(s) are excluded in this operation.")));
        assertEquals(Optional.empty(), HdfsOutage.of(new RemoteException("java.io.IOException", "File /archive/x "
                + "could only be written to 0 of the 1 minReplication nodes. There are 3 datanode(s) running and 1 "
                + "node(s) are excluded in this operation.")), "the other two have no room");
        assertEquals(Optional.empty(), HdfsOutage.of(new IOException("something else")));
    }
}
