/* The classic recursive bitmask N-Queens counter, as the peer that Bezzel's
 * bitmask counter is measured against (see queens_classic.sh). Kept as the
 * well-known program is, apart from the #includes it needs to compile cleanly.
 *
 *   gcc -O2 -o queens_classic queens_classic.c && ./queens_classic 16
 */
#include <stdio.h>
#include <stdlib.h>

int count; int all;
void test(int row, int ld, int rd){ int pos,p; if(row!=all){ pos = all & ~(row|ld|rd); while(pos){ p = pos & (~pos+1); pos -= p; test(row|p,(ld|p)<<1,(rd|p)>>1);} } else count++; }
int main(int argc,char**argv){ int n=atoi(argv[1]); all=(1<<n)-1; test(0,0,0); printf("%d\n",count);}
