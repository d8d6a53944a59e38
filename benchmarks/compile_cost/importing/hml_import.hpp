// How library_only.cpp reaches the library: an import here; textualize.cmake's copy #includes the headers.
#pragma once
import hml;
