/**
 * Sinks that archive records to local files, S3 and HDFS.
 */
package io.sluice.storage;
