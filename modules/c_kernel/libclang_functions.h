// The functions of libclang's C API that hml.c_kernel's reader calls, as an X-macro: the reader's table of
// pointers (reader.cppm) and the loader that resolves each by its name (c_kernel.cpp) are written from this
// one list, so that a function added to one is in the other.
#pragma once

#define HML_LIBCLANG_FUNCTIONS(X) \
  X(Cursor_Evaluate) \
  X(Cursor_getStorageClass) \
  X(Cursor_getVarDeclInitializer) \
  X(Cursor_isNull) \
  X(EvalResult_dispose) \
  X(EvalResult_getAsLongLong) \
  X(EvalResult_getAsUnsigned) \
  X(EvalResult_getKind) \
  X(EvalResult_isUnsignedInt) \
  X(Location_isFromMainFile) \
  X(Type_getSizeOf) \
  X(createIndex) \
  X(disposeDiagnostic) \
  X(disposeIndex) \
  X(disposeString) \
  X(disposeTokens) \
  X(disposeTranslationUnit) \
  X(equalCursors) \
  X(getArrayElementType) \
  X(getArraySize) \
  X(getBinaryOperatorKindSpelling) \
  X(getCString) \
  X(getCanonicalType) \
  X(getCursorBinaryOperatorKind) \
  X(getCursorExtent) \
  X(getCursorKind) \
  X(getCursorLocation) \
  X(getCursorReferenced) \
  X(getCursorSpelling) \
  X(getCursorType) \
  X(getCursorUnaryOperatorKind) \
  X(getDiagnostic) \
  X(getDiagnosticLocation) \
  X(getDiagnosticSeverity) \
  X(getDiagnosticSpelling) \
  X(getNullCursor) \
  X(getNumDiagnostics) \
  X(getPresumedLocation) \
  X(getRangeEnd) \
  X(getRangeStart) \
  X(getExpansionLocation) \
  X(getFile) \
  X(getLocationForOffset) \
  X(getRange) \
  X(getTokenKind) \
  X(getTokenSpelling) \
  X(getTranslationUnitCursor) \
  X(getTypeSpelling) \
  X(getUnaryOperatorKindSpelling) \
  X(isConstQualifiedType) \
  X(isVolatileQualifiedType) \
  X(parseTranslationUnit2) \
  X(tokenize) \
  X(visitChildren)
