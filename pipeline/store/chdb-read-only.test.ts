import { describe, expect, it } from 'vitest';
import { shapeRefusal, statementShape } from './chdb-read-only.js';

/** `EXPLAIN AST` dumps as the embedded engine (ClickHouse 26.7) prints them. */
const AST = {
  select:
    'SelectWithUnionQuery (children 1)\n ExpressionList (children 1)\n  SelectQuery (children 1)\n   ExpressionList (children 1)\n    Literal UInt64_1\n',
  selectOutfile:
    "SelectWithUnionQuery (children 3)\n ExpressionList (children 1)\n  SelectQuery (children 1)\n   ExpressionList (children 1)\n    Literal UInt64_1\n Literal 'x'\n Identifier CSV\n",
  selectFormat:
    'SelectWithUnionQuery (children 2)\n ExpressionList (children 1)\n  SelectQuery (children 1)\n   ExpressionList (children 1)\n    Literal UInt64_1\n Identifier JSON\n',
  showOutfile: "ShowTables (children 1)\n Literal 'x'\n",
  insert: 'InsertQuery   (children 2)\n Identifier t\n SelectWithUnionQuery (children 1)\n  ExpressionList (children 1)\n',
  kill: 'KillQueryQuery Literal_UInt64_1 ASYNC (children 1)\n Literal UInt64_1\n',
  system: 'SYSTEM query\n',
  describeTable: 'DescribeQuery (children 1)\n TableExpression (children 1)\n  TableIdentifier t\n',
  describeFunction:
    "DescribeQuery (children 1)\n TableExpression (children 1)\n  Function file (children 1)\n   ExpressionList (children 2)\n    Literal '/etc/passwd'\n    Literal 'CSV'\n",
  describeSubquery:
    'DescribeQuery (children 1)\n TableExpression (children 1)\n  Subquery (children 1)\n   SelectWithUnionQuery (children 1)\n',
  explainSelect: 'Explain EXPLAIN (children 1)\n SelectWithUnionQuery (children 1)\n  ExpressionList (children 1)\n',
  explainInsert: 'Explain EXPLAIN SYNTAX (children 1)\n InsertQuery   (children 2)\n  Identifier t\n',
  explainOutfile: "Explain EXPLAIN (children 2)\n SelectWithUnionQuery (children 1)\n  ExpressionList (children 1)\n Literal 'x'\n",
};

describe("statementShape reads the engine's AST dump", () => {
  it('names the root kind and finds INTO OUTFILE as a direct literal child, not a literal inside the query', () => {
    expect(statementShape(AST.select)).toEqual({
      kind: 'SelectWithUnionQuery',
      writesFile: false,
      describesFunction: false,
      explained: null,
    });
    expect(statementShape(AST.selectOutfile).writesFile).toBe(true);
    expect(statementShape(AST.selectFormat).writesFile).toBe(false);
    expect(statementShape(AST.showOutfile)).toEqual({ kind: 'ShowTables', writesFile: true, describesFunction: false, explained: null });
    expect(statementShape(AST.explainOutfile)).toEqual({
      kind: 'Explain',
      writesFile: true,
      describesFunction: false,
      explained: 'SelectWithUnionQuery',
    });
  });

  it('tells DESCRIBE of a table function from DESCRIBE of a table or a subquery', () => {
    expect(statementShape(AST.describeFunction).describesFunction).toBe(true);
    expect(statementShape(AST.describeTable).describesFunction).toBe(false);
    expect(statementShape(AST.describeSubquery).describesFunction).toBe(false);
  });
});

describe('shapeRefusal', () => {
  it('lets reads through and refuses every other kind with a reason', () => {
    expect(shapeRefusal(statementShape(AST.select))).toBeNull();
    expect(shapeRefusal(statementShape(AST.describeTable))).toBeNull();
    expect(shapeRefusal(statementShape(AST.explainSelect))).toBeNull();
    expect(shapeRefusal(statementShape(AST.insert))).toBe('Cannot execute query in readonly mode: InsertQuery statements are not reads');
    expect(shapeRefusal(statementShape(AST.kill))).toBe('Cannot execute query in readonly mode: KillQueryQuery statements are not reads');
    expect(shapeRefusal(statementShape(AST.system))).toBe('Cannot execute query in readonly mode: SYSTEM statements are not reads');
    expect(shapeRefusal(statementShape(AST.explainInsert))).toBe(
      'Cannot execute query in readonly mode: EXPLAIN of InsertQuery statements',
    );
    expect(shapeRefusal(statementShape(AST.selectOutfile))).toBe('Cannot execute query in readonly mode: INTO OUTFILE writes a file');
    expect(shapeRefusal(statementShape(AST.describeFunction))).toBe(
      'Cannot execute query in readonly mode: DESCRIBE of a table function reads outside the store',
    );
    expect(shapeRefusal(statementShape(''))).toBe('Cannot execute query in readonly mode: this statements are not reads');
  });
});
