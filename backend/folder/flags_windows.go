package folder

// oDirectory: Windows has no such flag; a file opened here fails at its
// first read instead.
const oDirectory = 0
