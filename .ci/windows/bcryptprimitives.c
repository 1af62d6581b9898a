/* bcryptprimitives.dll for Wine 8: Go >= 1.22 reads its randomness with
 * ProcessPrng, which Wine 8's own bcryptprimitives.dll lacks (Wine 9 has
 * it), so every Go program dies at start. This one-function DLL answers
 * it with RtlGenRandom (advapi32's SystemFunction036), as Windows' own
 * does from the same system generator. Built by .ci/windows/prefix.sh with
 * mingw-w64 into the Wine prefix only; never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
