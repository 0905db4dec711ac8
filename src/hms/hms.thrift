// The Hive Metastore service (ThriftHiveMetastore) as comb serves it: only
// the messages and calls src/hms/ implements, each field with the number
// and type Hive's published interface gives it, so that Hive's, Spark's
// and Trino's metastore clients read and write the same bytes.  A field a
// client sends that is not listed here is skipped by the generated reader
// (Thrift's rule), so a newer client's extra fields do no harm.  Generated
// into C with `thrift --gen c_glib` at build time (Makefile, prefix Hms);
// the handlers live in src/hms/hms_*.c.

namespace c_glib Hms

enum PrincipalType {
  USER = 1,
  ROLE = 2,
  GROUP = 3
}

enum TxnState {
  COMMITTED = 1,
  ABORTED = 2,
  OPEN = 3
}

enum LockLevel {
  DB = 1,
  TABLE = 2,
  PARTITION = 3
}

enum LockState {
  ACQUIRED = 1,
  WAITING = 2,
  ABORT = 3,
  NOT_ACQUIRED = 4
}

// EXCL_WRITE is Hive 4's; older clients never send it
enum LockType {
  SHARED_READ = 1,
  SHARED_WRITE = 2,
  EXCLUSIVE = 3,
  EXCL_WRITE = 4
}

enum CompactionType {
  MINOR = 1,
  MAJOR = 2
}

enum DataOperationType {
  SELECT = 1,
  INSERT = 2,
  UPDATE = 3,
  DELETE = 4,
  UNSET = 5,
  NO_TXN = 6
}

enum ClientCapability {
  TEST_CAPABILITY = 1,
  INSERT_ONLY_TABLES = 2
}

// Fields of default requiredness that Hive leaves null are declared
// optional here: Java's writer skips a null field, the generated C one
// writes every non-optional field, so only optional ones can be absent
// (the bytes of a present field are the same either way).

struct FieldSchema {
  1: string name,
  2: string type,
  3: optional string comment
}

struct Database {
  1: string name,
  2: optional string description,
  3: string locationUri,
  4: map<string, string> parameters,
  6: optional string ownerName,
  7: optional PrincipalType ownerType,
  8: optional string catalogName
}

struct SerDeInfo {
  1: string name,
  2: string serializationLib,
  3: map<string, string> parameters
}

struct Order {
  1: string col,
  2: i32 order
}

struct StorageDescriptor {
  1: list<FieldSchema> cols,
  2: string location,
  3: string inputFormat,
  4: string outputFormat,
  5: bool compressed,
  6: i32 numBuckets,
  7: SerDeInfo serdeInfo,
  8: list<string> bucketCols,
  9: list<Order> sortCols,
  10: map<string, string> parameters,
  12: optional bool storedAsSubDirectories
}

struct Table {
  1: string tableName,
  2: string dbName,
  3: string owner,
  4: i32 createTime,
  5: i32 lastAccessTime,
  6: i32 retention,
  7: StorageDescriptor sd,
  8: list<FieldSchema> partitionKeys,
  9: map<string, string> parameters,
  10: optional string viewOriginalText,
  11: optional string viewExpandedText,
  12: string tableType,
  14: optional bool temporary = false,
  17: optional string catName,
  18: optional PrincipalType ownerType = PrincipalType.USER
}

struct ClientCapabilities {
  1: required list<ClientCapability> values
}

struct GetTableRequest {
  1: required string dbName,
  2: required string tblName,
  3: optional ClientCapabilities capabilities,
  4: optional string catName
}

struct GetTableResult {
  1: required Table table
}

struct GetOpenTxnsResponse {
  1: required i64 txn_high_water_mark,
  2: required list<i64> open_txns,
  3: optional i64 min_open_txn,
  4: required binary abortedBits
}

struct OpenTxnRequest {
  1: required i32 num_txns,
  2: required string user,
  3: required string hostname,
  4: optional string agentInfo = "Unknown"
}

struct OpenTxnsResponse {
  1: required list<i64> txn_ids
}

struct AbortTxnRequest {
  1: required i64 txnid
}

struct CommitTxnRequest {
  1: required i64 txnid
}

struct GetValidWriteIdsRequest {
  1: required list<string> fullTableNames,
  2: required string validTxnList
}

struct TableValidWriteIds {
  1: required string fullTableName,
  2: required i64 writeIdHighWaterMark,
  3: required list<i64> invalidWriteIds,
  4: optional i64 minOpenWriteId,
  5: required binary abortedBits
}

struct GetValidWriteIdsResponse {
  1: required list<TableValidWriteIds> tblValidWriteIds
}

struct AllocateTableWriteIdsRequest {
  1: required string dbName,
  2: required string tableName,
  3: optional list<i64> txnIds
}

struct TxnToWriteId {
  1: required i64 txnId,
  2: required i64 writeId
}

struct AllocateTableWriteIdsResponse {
  1: required list<TxnToWriteId> txnToWriteIds
}

struct LockComponent {
  1: required LockType type,
  2: required LockLevel level,
  3: required string dbname,
  4: optional string tablename,
  5: optional string partitionname,
  6: optional DataOperationType operationType = DataOperationType.UNSET,
  7: optional bool isTransactional = false,
  8: optional bool isDynamicPartitionWrite = false
}

struct LockRequest {
  1: required list<LockComponent> component,
  2: optional i64 txnid,
  3: required string user,
  4: required string hostname,
  5: optional string agentInfo = "Unknown"
}

struct LockResponse {
  1: required i64 lockid,
  2: required LockState state
}

struct CheckLockRequest {
  1: required i64 lockid,
  2: optional i64 txnid,
  3: optional i64 elapsed_ms
}

struct UnlockRequest {
  1: required i64 lockid
}

struct ShowLocksRequest {
  1: optional string dbname,
  2: optional string tablename,
  3: optional string partname,
  4: optional bool isExtended = false
}

struct ShowLocksResponseElement {
  1: required i64 lockid,
  2: required string dbname,
  3: optional string tablename,
  4: optional string partname,
  5: required LockState state,
  6: required LockType type,
  7: optional i64 txnid,
  8: required i64 lastheartbeat,
  9: optional i64 acquiredat,
  10: required string user,
  11: required string hostname,
  12: optional i32 heartbeatCount = 0,
  13: optional string agentInfo,
  14: optional i64 blockedByExtId,
  15: optional i64 blockedByIntId,
  16: optional i64 lockIdInternal
}

struct ShowLocksResponse {
  1: list<ShowLocksResponseElement> locks
}

struct HeartbeatRequest {
  1: optional i64 lockid,
  2: optional i64 txnid
}

struct HeartbeatTxnRangeRequest {
  1: required i64 min,
  2: required i64 max
}

struct HeartbeatTxnRangeResponse {
  1: required set<i64> aborted,
  2: required set<i64> nosuch
}

// Compaction (hms_compact.c): Hive 3's fields, and Hive 4's that comb
// has values for (a Hive 3 client skips those it does not know).
struct CompactionRequest {
  1: required string dbname,
  2: required string tablename,
  3: optional string partitionname,
  4: required CompactionType type,
  5: optional string runas,
  6: optional map<string, string> properties
}

struct CompactionResponse {
  1: required i64 id,
  2: required string state,
  3: required bool accepted,
  4: optional string errormessage
}

struct ShowCompactRequest {
  1: optional i64 id,
  2: optional string poolName,
  3: optional string dbName,
  4: optional string tbName,
  5: optional string partName,
  6: optional CompactionType type,
  7: optional string state,
  8: optional i64 limit,
  9: optional string order
}

struct ShowCompactResponseElement {
  1: required string dbname,
  2: required string tablename,
  3: optional string partitionname,
  4: required CompactionType type,
  5: required string state,
  6: optional string workerid,
  7: optional i64 start,
  8: optional string runAs,
  9: optional i64 hightestTxnId,
  10: optional string metaInfo,
  11: optional i64 endTime,
  12: optional string hadoopJobId = "None",
  13: optional i64 id,
  14: optional string errorMessage,
  15: optional i64 enqueueTime,
  17: optional string initiatorId,
  20: optional string poolName,
  21: optional i64 nextTxnId,
  22: optional i64 txnId,
  23: optional i64 commitTime,
  24: optional i64 hightestWriteId
}

struct ShowCompactResponse {
  1: required list<ShowCompactResponseElement> compacts
}

exception MetaException {
  1: string message
}

exception NoSuchObjectException {
  1: string message
}

exception ConfigValSecurityException {
  1: string message
}

exception NoSuchTxnException {
  1: string message
}

exception TxnAbortedException {
  1: string message
}

exception TxnOpenException {
  1: string message
}

exception NoSuchLockException {
  1: string message
}

// Tables and their column statistics (hms_ddl.c, hms_stats.c).

struct EnvironmentContext {
  1: map<string, string> properties
}

struct AlterTableRequest {
  1: optional string catName,
  2: required string dbName,
  3: required string tableName,
  4: required Table table,
  5: optional EnvironmentContext environmentContext,
  6: optional i64 writeId = -1,
  7: optional string validWriteIdList
}

struct AlterTableResponse {
}

struct BooleanColumnStatsData {
  1: required i64 numTrues,
  2: required i64 numFalses,
  3: required i64 numNulls,
  4: optional binary bitVectors
}

struct DoubleColumnStatsData {
  1: optional double lowValue,
  2: optional double highValue,
  3: required i64 numNulls,
  4: required i64 numDVs,
  5: optional binary bitVectors
}

struct LongColumnStatsData {
  1: optional i64 lowValue,
  2: optional i64 highValue,
  3: required i64 numNulls,
  4: required i64 numDVs,
  5: optional binary bitVectors
}

struct StringColumnStatsData {
  1: required i64 maxColLen,
  2: required double avgColLen,
  3: required i64 numNulls,
  4: required i64 numDVs,
  5: optional binary bitVectors
}

struct BinaryColumnStatsData {
  1: required i64 maxColLen,
  2: required double avgColLen,
  3: required i64 numNulls,
  4: optional binary bitVectors
}

// the unscaled value big-endian two's complement, as Java's BigInteger
struct Decimal {
  3: required i16 scale,
  1: required binary unscaled
}

struct DecimalColumnStatsData {
  1: optional Decimal lowValue,
  2: optional Decimal highValue,
  3: required i64 numNulls,
  4: required i64 numDVs,
  5: optional binary bitVectors
}

struct Date {
  1: required i64 daysSinceEpoch
}

struct DateColumnStatsData {
  1: optional Date lowValue,
  2: optional Date highValue,
  3: required i64 numNulls,
  4: required i64 numDVs,
  5: optional binary bitVectors
}

struct Timestamp {
  1: required i64 secondsSinceEpoch
}

struct TimestampColumnStatsData {
  1: optional Timestamp lowValue,
  2: optional Timestamp highValue,
  3: required i64 numNulls,
  4: required i64 numDVs,
  5: optional binary bitVectors
}

union ColumnStatisticsData {
  1: BooleanColumnStatsData booleanStats,
  2: LongColumnStatsData longStats,
  3: DoubleColumnStatsData doubleStats,
  4: StringColumnStatsData stringStats,
  5: BinaryColumnStatsData binaryStats,
  6: DecimalColumnStatsData decimalStats,
  7: DateColumnStatsData dateStats,
  8: TimestampColumnStatsData timestampStats
}

struct ColumnStatisticsObj {
  1: required string colName,
  2: required string colType,
  3: required ColumnStatisticsData statsData
}

struct ColumnStatisticsDesc {
  1: required bool isTblLevel,
  2: required string dbName,
  3: required string tableName,
  4: optional string partName,
  5: optional i64 lastAnalyzed,
  6: optional string catName
}

struct ColumnStatistics {
  1: required ColumnStatisticsDesc statsDesc,
  2: required list<ColumnStatisticsObj> statsObj
}

struct TableStatsRequest {
  1: required string dbName,
  2: required string tblName,
  3: required list<string> colNames,
  4: optional string catName
}

struct TableStatsResult {
  1: required list<ColumnStatisticsObj> tableStats
}

struct PartitionsStatsRequest {
  1: required string dbName,
  2: required string tblName,
  3: required list<string> colNames,
  4: required list<string> partNames,
  5: optional string catName
}

struct PartitionsStatsResult {
  1: required map<string, list<ColumnStatisticsObj>> partStats
}

exception AlreadyExistsException {
  1: string message
}

exception InvalidObjectException {
  1: string message
}

exception InvalidOperationException {
  1: string message
}

exception InvalidInputException {
  1: string message
}

// Partitions and a txn's dynamic partitions (hms_part.c).  Partition's
// privileges (8) and AlterPartitionsRequest's environmentContext (5) are
// left out: comb neither keeps nor needs them, and the reader skips them.
struct Partition {
  1: list<string> values,
  2: string dbName,
  3: string tableName,
  4: i32 createTime,
  5: i32 lastAccessTime,
  6: StorageDescriptor sd,
  7: map<string, string> parameters,
  9: optional string catName,
  10: optional i64 writeId = -1
}

struct AddPartitionsRequest {
  1: required string dbName,
  2: required string tblName,
  3: required list<Partition> parts,
  4: required bool ifNotExists,
  5: optional bool needResult = true,
  6: optional string catName
}

struct AddPartitionsResult {
  1: optional list<Partition> partitions
}

struct AlterPartitionsRequest {
  1: optional string catName,
  2: required string dbName,
  3: required string tableName,
  4: required list<Partition> partitions,
  6: optional i64 writeId = -1,
  7: optional string validWriteIdList
}

struct AlterPartitionsResponse {
}

struct AddDynamicPartitions {
  1: required i64 txnid,
  2: required i64 writeid,
  3: required string dbname,
  4: required string tablename,
  5: required list<string> partitionnames,
  6: optional DataOperationType operationType = DataOperationType.UNSET
}

service ThriftHiveMetastore {
  string getMetaConf(1: string key) throws (1: MetaException o1)
  Database get_database(1: string name)
    throws (1: NoSuchObjectException o1, 2: MetaException o2)
  list<string> get_all_databases() throws (1: MetaException o1)
  list<string> get_tables_by_type(1: string db_name, 2: string pattern,
                                  3: string tableType)
    throws (1: MetaException o1)
  list<string> get_all_tables(1: string db_name) throws (1: MetaException o1)
  Table get_table(1: string dbname, 2: string tbl_name)
    throws (1: MetaException o1, 2: NoSuchObjectException o2)
  GetTableResult get_table_req(1: GetTableRequest req)
    throws (1: MetaException o1, 2: NoSuchObjectException o2)
  string get_config_value(1: string name, 2: string defaultValue)
    throws (1: ConfigValSecurityException o1)

  GetOpenTxnsResponse get_open_txns()
  OpenTxnsResponse open_txns(1: OpenTxnRequest rqst)
  void abort_txn(1: AbortTxnRequest rqst) throws (1: NoSuchTxnException o1)
  void commit_txn(1: CommitTxnRequest rqst)
    throws (1: NoSuchTxnException o1, 2: TxnAbortedException o2)
  GetValidWriteIdsResponse get_valid_write_ids(1: GetValidWriteIdsRequest rqst)
    throws (1: NoSuchTxnException o1, 2: MetaException o2)
  AllocateTableWriteIdsResponse allocate_table_write_ids(
      1: AllocateTableWriteIdsRequest rqst)
    throws (1: NoSuchTxnException o1, 2: TxnAbortedException o2,
            3: MetaException o3)
  LockResponse lock(1: LockRequest rqst)
    throws (1: NoSuchTxnException o1, 2: TxnAbortedException o2)
  LockResponse check_lock(1: CheckLockRequest rqst)
    throws (1: NoSuchTxnException o1, 2: TxnAbortedException o2,
            3: NoSuchLockException o3)
  void unlock(1: UnlockRequest rqst)
    throws (1: NoSuchLockException o1, 2: TxnOpenException o2)
  ShowLocksResponse show_locks(1: ShowLocksRequest rqst)
  void heartbeat(1: HeartbeatRequest ids)
    throws (1: NoSuchLockException o1, 2: NoSuchTxnException o2,
            3: TxnAbortedException o3)
  HeartbeatTxnRangeResponse heartbeat_txn_range(1: HeartbeatTxnRangeRequest txns)

  void create_table(1: Table tbl)
    throws (1: AlreadyExistsException o1, 2: InvalidObjectException o2,
            3: MetaException o3, 4: NoSuchObjectException o4)
  void create_table_with_environment_context(1: Table tbl,
      2: EnvironmentContext environment_context)
    throws (1: AlreadyExistsException o1, 2: InvalidObjectException o2,
            3: MetaException o3, 4: NoSuchObjectException o4)
  void drop_table(1: string dbname, 2: string name, 3: bool deleteData)
    throws (1: NoSuchObjectException o1, 2: MetaException o3)
  void drop_table_with_environment_context(1: string dbname, 2: string name,
      3: bool deleteData, 4: EnvironmentContext environment_context)
    throws (1: NoSuchObjectException o1, 2: MetaException o3)
  void alter_table_with_environment_context(1: string dbname,
      2: string tbl_name, 3: Table new_tbl,
      4: EnvironmentContext environment_context)
    throws (1: InvalidOperationException o1, 2: MetaException o2)
  AlterTableResponse alter_table_req(1: AlterTableRequest req)
    throws (1: InvalidOperationException o1, 2: MetaException o2)
  bool update_table_column_statistics(1: ColumnStatistics stats_obj)
    throws (1: NoSuchObjectException o1, 2: InvalidObjectException o2,
            3: MetaException o3, 4: InvalidInputException o4)
  bool update_partition_column_statistics(1: ColumnStatistics stats_obj)
    throws (1: NoSuchObjectException o1, 2: InvalidObjectException o2,
            3: MetaException o3, 4: InvalidInputException o4)
  TableStatsResult get_table_statistics_req(1: TableStatsRequest request)
    throws (1: NoSuchObjectException o1, 2: MetaException o2)
  PartitionsStatsResult get_partitions_statistics_req(
      1: PartitionsStatsRequest request)
    throws (1: NoSuchObjectException o1, 2: MetaException o2)

  CompactionResponse compact2(1: CompactionRequest rqst)
  ShowCompactResponse show_compact(1: ShowCompactRequest rqst)

  list<string> get_partition_names_ps(1: string db_name, 2: string tbl_name,
                                      3: list<string> part_vals,
                                      4: i16 max_parts = -1)
    throws (1: MetaException o1, 2: NoSuchObjectException o2)
  list<Partition> get_partitions_by_names(1: string db_name, 2: string tbl_name,
                                          3: list<string> names)
    throws (1: MetaException o1, 2: NoSuchObjectException o2)
  i32 add_partitions(1: list<Partition> new_parts)
    throws (1: InvalidObjectException o1, 2: AlreadyExistsException o2,
            3: MetaException o3)
  AddPartitionsResult add_partitions_req(1: AddPartitionsRequest request)
    throws (1: InvalidObjectException o1, 2: AlreadyExistsException o2,
            3: MetaException o3)
  AlterPartitionsResponse alter_partitions_req(1: AlterPartitionsRequest req)
    throws (1: InvalidOperationException o1, 2: MetaException o2)
  void add_dynamic_partitions(1: AddDynamicPartitions rqst)
    throws (1: NoSuchTxnException o1, 2: TxnAbortedException o2)
}
