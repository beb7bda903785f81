/// One change of the PostgreSQL schema. Migrations are numbered from 1,
/// run in order, each in its own transaction, and never edited once
/// released: a change is a new migration (forward only).
struct PostgresMigration: Sendable {
    /// Its number; `schema_migrations` records the ones applied.
    let version: Int
    /// What it changes, recorded beside the number.
    let description: String
    /// The statements.
    let sql: String
}
