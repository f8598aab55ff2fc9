"""librdkafka's mock Kafka cluster with topics created at given partition counts.

kcat starts the same mock cluster but cannot create topics: the cluster then creates every
topic on first use at its default of 4 partitions, and it answers no CreateTopics request
(kafkajs's admin refuses with "Broker 0 not found in the cached metadata"). librdkafka's own
mock API can, so this calls it through ctypes on the librdkafka that kcat installs.

usage: python3 mock-kafka.py topic=partitions ...
Prints `bootstrap.servers=HOST:PORT` on stderr once the topics exist, then serves until killed
or until its standard input closes (the parent died).

While it serves, a line `errors API_KEY ERROR_CODE COUNT` on standard input makes the cluster
answer the next COUNT requests of that API (any client) with that error, as a broker refusing
them would; `pushed` on stderr acknowledges it.
"""
import ctypes
import ctypes.util
import sys

def main() -> int:
    name = ctypes.util.find_library("rdkafka") or "librdkafka.so.1"
    lib = ctypes.CDLL(name)
    lib.rd_kafka_conf_new.restype = ctypes.c_void_p
    lib.rd_kafka_conf_set.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.rd_kafka_new.restype = ctypes.c_void_p
    lib.rd_kafka_new.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.rd_kafka_handle_mock_cluster.restype = ctypes.c_void_p
    lib.rd_kafka_handle_mock_cluster.argtypes = [ctypes.c_void_p]
    lib.rd_kafka_mock_cluster_bootstraps.restype = ctypes.c_char_p
    lib.rd_kafka_mock_cluster_bootstraps.argtypes = [ctypes.c_void_p]
    lib.rd_kafka_mock_topic_create.restype = ctypes.c_int
    lib.rd_kafka_mock_topic_create.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    lib.rd_kafka_mock_push_request_errors_array.restype = None
    lib.rd_kafka_mock_push_request_errors_array.argtypes = [ctypes.c_void_p, ctypes.c_int16, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int)]

    err = ctypes.create_string_buffer(512)
    conf = lib.rd_kafka_conf_new()
    if lib.rd_kafka_conf_set(conf, b"test.mock.num.brokers", b"1", err, 512) != 0:
        print(f"mock cluster: {err.value.decode()}", file=sys.stderr)
        return 1
    rk = lib.rd_kafka_new(0, conf, err, 512)  # RD_KAFKA_PRODUCER
    if not rk:
        print(f"mock cluster: {err.value.decode()}", file=sys.stderr)
        return 1
    cluster = lib.rd_kafka_handle_mock_cluster(rk)
    for arg in sys.argv[1:]:
        topic, _, partitions = arg.rpartition("=")
        code = lib.rd_kafka_mock_topic_create(cluster, topic.encode(), int(partitions), 1)
        if code != 0:
            print(f"mock cluster: cannot create {topic} ({code})", file=sys.stderr)
            return 1
    print(f"bootstrap.servers={lib.rd_kafka_mock_cluster_bootstraps(cluster).decode()}", file=sys.stderr, flush=True)
    for line in sys.stdin:  # ends when the parent closes the pipe or dies
        words = line.split()
        if len(words) == 4 and words[0] == "errors":
            api_key, code, count = int(words[1]), int(words[2]), int(words[3])
            lib.rd_kafka_mock_push_request_errors_array(cluster, api_key, count, (ctypes.c_int * count)(*([code] * count)))
            print("pushed", file=sys.stderr, flush=True)
        else:
            print(f"mock cluster: unknown command {line.strip()!r}", file=sys.stderr, flush=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
